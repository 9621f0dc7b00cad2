#include "psfsim/virtual_join.hpp"

#include <hdf5.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <set>
#include <vector>

#include "atomic_h5_file.hpp"
#include "psfsim/errors.hpp"

namespace psfsim {
namespace fs = std::filesystem;

namespace {

using h5::check;
using h5::Handle;

bool under(const std::string& path, const std::string& root) {
  return path == root || path.rfind(root + "/", 0) == 0;
}

// Where per-frame datasets live; everything else is the first part's.
bool under_joined_root(const std::string& path) {
  return under(path, "psf") || under(path, "parameters") || under(path, "metrics");
}

std::vector<hsize_t> dims_of(hid_t set) {
  const Handle space(H5Dget_space(set), H5Sclose, "read a dataspace");
  const int n = H5Sget_simple_extent_ndims(space.get());
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(n, 0)));
  if (n > 0) check(H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr), "read dims");
  return dims;
}

struct Parts {
  const std::vector<PartFile>& list;
  std::vector<Handle> files;
  hsize_t total = 0;
  [[nodiscard]] hid_t first() const noexcept { return files.front().get(); }
};

Handle open_dataset(hid_t file, const std::string& name) {
  return Handle(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose, "open /" + name);
}

// Every part holds `name` with its own frame count first and the same other dimensions.
bool per_frame_in_every_part(const Parts& parts, const std::string& name) {
  std::vector<hsize_t> shape;
  for (std::size_t i = 0; i < parts.files.size(); ++i) {
    const hid_t file = parts.files[i].get();
    if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) return false;
    const Handle set = open_dataset(file, name);
    std::vector<hsize_t> dims = dims_of(set.get());
    if (dims.empty() || dims[0] != parts.list[i].frames) return false;
    dims[0] = 0;
    if (i == 0) shape = dims;
    if (dims != shape) return false;
  }
  return true;
}

// A frame-number scale: 0..n-1 in every part (each part counts its own frames from 0).
bool frame_numbers_in_every_part(const Parts& parts, const std::string& name) {
  if (!per_frame_in_every_part(parts, name)) return false;
  for (std::size_t i = 0; i < parts.files.size(); ++i) {
    const Handle set = open_dataset(parts.files[i].get(), name);
    if (dims_of(set.get()).size() != 1) return false;
    std::vector<double> values(parts.list[i].frames);
    check(H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
          "read /" + name);
    for (std::size_t f = 0; f < values.size(); ++f)
      if (values[f] != static_cast<double>(f)) return false;
  }
  return true;
}

// The parts' datasets `name`, one after the other along axis 0, by their relative file names.
void create_virtual(hid_t out, const std::string& name, const Parts& parts) {
  const Handle first = open_dataset(parts.first(), name);
  std::vector<hsize_t> dims = dims_of(first.get());
  dims[0] = parts.total;
  const int rank = static_cast<int>(dims.size());
  const Handle space(H5Screate_simple(rank, dims.data(), nullptr), H5Sclose,
                     "create the dataspace of /" + name);
  const Handle create(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "create properties");
  std::vector<hsize_t> start(dims.size(), 0);
  for (const PartFile& part : parts.list) {
    if (part.frames == 0) continue;
    std::vector<hsize_t> block = dims;
    block[0] = part.frames;
    const Handle source(H5Screate_simple(rank, block.data(), nullptr), H5Sclose,
                        "create a source dataspace");
    check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start.data(), nullptr, block.data(),
                              nullptr),
          "select a block of /" + name);
    const std::string file =
        part.final_name.empty() ? part.path.filename().string() : part.final_name;
    check(
        H5Pset_virtual(create.get(), space.get(), file.c_str(), ("/" + name).c_str(), source.get()),
        "map /" + name + " of " + file);
    start[0] += part.frames;
  }
  check(H5Sselect_all(space.get()), "select /" + name);
  const Handle type(H5Dget_type(first.get()), H5Tclose, "read the type of /" + name);
  const Handle set(H5Dcreate2(out, name.c_str(), type.get(), space.get(), H5P_DEFAULT, create.get(),
                              H5P_DEFAULT),
                   H5Dclose, "create the virtual dataset /" + name);
}

void write_frame_numbers(hid_t out, const std::string& name, const Parts& parts) {
  const Handle first = open_dataset(parts.first(), name);
  const Handle type(H5Dget_type(first.get()), H5Tclose, "read the type of /" + name);
  std::vector<long long> index(parts.total);
  for (std::size_t f = 0; f < index.size(); ++f) index[f] = static_cast<long long>(f);
  const hsize_t dims[1] = {parts.total};
  const Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose, "create a dataspace");
  const Handle set(
      H5Dcreate2(out, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      H5Dclose, "create /" + name);
  check(H5Dwrite(set.get(), H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, index.data()),
        "write /" + name);
}

herr_t collect_attribute(hid_t, const char* name, const H5A_info_t*, void* names) noexcept {
  static_cast<std::vector<std::string>*>(names)->emplace_back(name);
  return 0;
}

// Copies the attributes of `from` that `to` lacks. Dimension-scale bookkeeping is left out:
// its references point into the source file; attach_scales() makes it anew.
void copy_attributes(hid_t from, hid_t to) {
  std::vector<std::string> names;
  check(H5Aiterate2(from, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_attribute, &names),
        "list attributes");
  const bool scale = H5Iget_type(from) == H5I_DATASET && H5DSis_scale(from) > 0;
  for (const std::string& name : names) {
    if (name == "DIMENSION_LIST" || name == "REFERENCE_LIST") continue;
    if (scale && (name == "CLASS" || name == "NAME")) continue;
    if (H5Aexists(to, name.c_str()) > 0) continue;
    const Handle attr(H5Aopen(from, name.c_str(), H5P_DEFAULT), H5Aclose, "open attribute " + name);
    const Handle file_type(H5Aget_type(attr.get()), H5Tclose, "read attribute " + name);
    const Handle type(H5Tget_native_type(file_type.get(), H5T_DIR_ASCEND), H5Tclose,
                      "read attribute " + name);
    const Handle space(H5Aget_space(attr.get()), H5Sclose, "read attribute " + name);
    const hssize_t points = std::max<hssize_t>(H5Sget_simple_extent_npoints(space.get()), 1);
    std::vector<unsigned char> buffer(static_cast<std::size_t>(points) * H5Tget_size(type.get()));
    check(H5Aread(attr.get(), type.get(), buffer.data()), "read attribute " + name);
    const bool variable =
        H5Tdetect_class(type.get(), H5T_VLEN) > 0 || H5Tis_variable_str(type.get()) > 0;
    herr_t written = -1;
    {
      const Handle copy(
          H5Acreate2(to, name.c_str(), file_type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
          H5Aclose, "create attribute " + name);
      written = H5Awrite(copy.get(), type.get(), buffer.data());
    }
    if (variable) H5Dvlen_reclaim(type.get(), space.get(), H5P_DEFAULT, buffer.data());
    check(written, "write attribute " + name);
  }
}

// A count of frames recorded on a joined object (/parameters' `frames`) is the batch's.
void set_frames_attribute(hid_t object, hsize_t total) {
  if (H5Aexists(object, "frames") <= 0) return;
  check(H5Adelete(object, "frames"), "replace attribute frames");
  h5::set_attribute(object, "frames", static_cast<long long>(total));
}

herr_t collect_scale(hid_t, unsigned, hid_t scale, void* paths) noexcept {
  char name[1024] = {};
  if (H5Iget_name(scale, name, sizeof name) > 1)
    static_cast<std::vector<std::string>*>(paths)->emplace_back(name + 1);  // without "/"
  return 0;
}

std::vector<std::string> scales_of(hid_t set, unsigned axis) {
  std::vector<std::string> paths;
  if (H5DSget_num_scales(set, axis) > 0)
    check(H5DSiterate_scales(set, axis, nullptr, collect_scale, &paths), "list dimension scales");
  return paths;
}

// The first part's dimension scales, attached to the same axes in the output.
void attach_scales(hid_t out, const Parts& parts, const std::vector<std::string>& datasets) {
  for (const std::string& name : datasets) {
    const Handle from = open_dataset(parts.first(), name);
    const Handle to = open_dataset(out, name);
    const std::size_t axes = dims_of(from.get()).size();
    for (unsigned axis = 0; axis < axes; ++axis) {
      for (const std::string& scale_name : scales_of(from.get(), axis)) {
        const Handle source_scale = open_dataset(parts.first(), scale_name);
        const Handle scale = open_dataset(out, scale_name);
        if (H5DSis_scale(scale.get()) <= 0) {
          char label[256] = {};
          (void)H5DSget_scale_name(source_scale.get(), label, sizeof label);
          check(H5DSset_scale(scale.get(), label), "make /" + scale_name + " a scale");
        }
        check(H5DSattach_scale(to.get(), scale.get(), axis),
              "attach /" + scale_name + " to /" + name);
      }
    }
  }
}

herr_t collect_link(hid_t, const char* name, const H5L_info_t* info, void* names) noexcept {
  if (info->type == H5L_TYPE_HARD)
    static_cast<std::vector<std::string>*>(names)->emplace_back(name);
  return 0;
}

// Groups, datasets (joined, renumbered or copied) and their attributes, /timings aside.
void join_objects(hid_t out, const Parts& parts) {
  std::vector<std::string> names;
  check(H5Lvisit(parts.first(), H5_INDEX_NAME, H5_ITER_INC, collect_link, &names),
        "list the objects");
  std::sort(names.begin(), names.end());  // a group before its members
  names.erase(std::remove_if(names.begin(), names.end(),
                             [](const std::string& n) { return under(n, "timings"); }),
              names.end());
  // Per-frame datasets, and the scales on their first axis (the frame axis).
  std::set<std::string> joined, frame_scales;
  std::vector<std::string> datasets;
  for (const std::string& name : names) {
    const Handle object(H5Oopen(parts.first(), name.c_str(), H5P_DEFAULT), H5Oclose,
                        "open /" + name);
    if (H5Iget_type(object.get()) != H5I_DATASET) continue;
    datasets.push_back(name);
    if (!under_joined_root(name) || H5DSis_scale(object.get()) > 0) continue;
    if (!per_frame_in_every_part(parts, name)) continue;
    joined.insert(name);
    for (const std::string& s : scales_of(object.get(), 0)) frame_scales.insert(s);
  }
  for (const std::string& name : names) {
    const Handle object(H5Oopen(parts.first(), name.c_str(), H5P_DEFAULT), H5Oclose,
                        "open /" + name);
    if (H5Iget_type(object.get()) == H5I_GROUP) {
      const Handle group(H5Gcreate2(out, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                         H5Gclose, "create /" + name);
    } else if (frame_scales.count(name) > 0 && frame_numbers_in_every_part(parts, name)) {
      write_frame_numbers(out, name, parts);
    } else if (joined.count(name) > 0 ||
               (frame_scales.count(name) > 0 && per_frame_in_every_part(parts, name))) {
      create_virtual(out, name, parts);
    } else {
      const Handle copy(H5Pcreate(H5P_OBJECT_COPY), H5Pclose, "create copy properties");
      check(H5Pset_copy_object(copy.get(), H5O_COPY_WITHOUT_ATTR_FLAG), "set copy properties");
      check(H5Ocopy(parts.first(), name.c_str(), out, name.c_str(), copy.get(), H5P_DEFAULT),
            "copy /" + name);
    }
    const Handle copied(H5Oopen(out, name.c_str(), H5P_DEFAULT), H5Oclose, "open /" + name);
    copy_attributes(object.get(), copied.get());
    set_frames_attribute(copied.get(), parts.total);
  }
  attach_scales(out, parts, datasets);
}

// /timings: the first part's, then /timings/rank_R for part R, each with its frame range.
void join_timings(hid_t out, const Parts& parts) {
  hsize_t first_frame = 0;
  for (std::size_t r = 0; r < parts.files.size(); ++r) {
    const hid_t file = parts.files[r].get();
    if (H5Lexists(file, "timings", H5P_DEFAULT) <= 0) continue;
    const std::string name = r == 0 ? "timings" : "timings/rank_" + std::to_string(r);
    check(H5Ocopy(file, "timings", out, name.c_str(), H5P_DEFAULT, H5P_DEFAULT), "copy /" + name);
    const Handle group(H5Gopen2(out, name.c_str(), H5P_DEFAULT), H5Gclose, "open /" + name);
    h5::set_attribute(group.get(), "rank", static_cast<long long>(r));
    h5::set_attribute(group.get(), "rank_first_frame", static_cast<long long>(first_frame));
    h5::set_attribute(group.get(), "rank_frames", static_cast<long long>(parts.list[r].frames));
    if (r == 0) h5::set_attribute(group.get(), "ranks", static_cast<long long>(parts.files.size()));
    first_frame += parts.list[r].frames;
  }
}

}  // namespace

void join_part_files(const fs::path& target, const std::vector<PartFile>& parts_list,
                     const std::string& command_line, const std::string& config_toml) {
  h5::silence_library_errors();
  try {
    if (parts_list.empty()) throw RuntimeFailure("no part files to join");
    Parts parts{parts_list, {}, 0};
    for (const PartFile& part : parts_list) {
      parts.files.emplace_back(H5Fopen(part.path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose,
                               "open " + part.path.string());
      parts.total += part.frames;
    }
    // The target is the job's staged name (docs/scaling.md), its own to replace.
    h5::AtomicFile file(target, true, h5::Provenance{command_line, config_toml});
    copy_attributes(parts.first(), file.root());
    h5::set_attribute(file.root(), "mpi_ranks", static_cast<long long>(parts_list.size()));
    join_objects(file.root(), parts);
    join_timings(file.root(), parts);
    parts.files.clear();
    file.commit();
  } catch (const RuntimeFailure& e) {
    throw RuntimeFailure(target.string() + ": " + e.what());
  }
}

}  // namespace psfsim

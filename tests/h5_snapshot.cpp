#include "h5_snapshot.hpp"

#include <hdf5.h>

#include <stdexcept>

namespace psfsim::test {
namespace {

// Strings (fixed or variable length, scalar or arrays such as DIMENSION_LABELS) and numbers
// as text; other classes (the dimension-scale references) by their class only.
std::string attribute_text(hid_t attr) {
  const hid_t type = H5Aget_type(attr);
  const hid_t space = H5Aget_space(attr);
  const hssize_t points = H5Sget_simple_extent_npoints(space);
  const std::size_t n = static_cast<std::size_t>(points > 0 ? points : 1);
  const H5T_class_t kind = H5Tget_class(type);
  std::string text;
  if (kind == H5T_STRING && H5Tis_variable_str(type) > 0) {
    std::vector<char*> values(n, nullptr);
    const hid_t memory = H5Tcopy(type);
    if (H5Aread(attr, memory, values.data()) >= 0)
      for (std::size_t i = 0; i < n; ++i)
        text += (i ? "," : "") + std::string(values[i] != nullptr ? values[i] : "");
    H5Dvlen_reclaim(memory, space, H5P_DEFAULT, values.data());
    H5Tclose(memory);
  } else if (kind == H5T_STRING) {
    const std::size_t size = H5Tget_size(type);
    std::string buffer(n * size, '\0');
    const hid_t memory = H5Tcopy(type);
    if (H5Aread(attr, memory, buffer.data()) >= 0)
      for (std::size_t i = 0; i < n; ++i)
        text += (i ? "," : "") + std::string(buffer.c_str() + i * size);
    H5Tclose(memory);
  } else if (kind == H5T_INTEGER || kind == H5T_FLOAT) {
    std::vector<double> values(n);
    if (H5Aread(attr, H5T_NATIVE_DOUBLE, values.data()) >= 0)
      for (std::size_t i = 0; i < n; ++i) text += (i ? "," : "") + std::to_string(values[i]);
  } else {
    text = "<class " + std::to_string(static_cast<int>(kind)) + ">";
  }
  H5Sclose(space);
  H5Tclose(type);
  return text;
}

herr_t collect_attribute(hid_t object, const char* name, const H5A_info_t*, void* data) {
  auto* out = static_cast<std::pair<std::string, H5Snapshot*>*>(data);
  const hid_t attr = H5Aopen(object, name, H5P_DEFAULT);
  if (attr < 0) return -1;
  out->second->attributes[out->first + "@" + name] = attribute_text(attr);
  H5Aclose(attr);
  return 0;
}

void read_attributes(hid_t object, const std::string& path, H5Snapshot& s) {
  std::pair<std::string, H5Snapshot*> context{path, &s};
  hsize_t index = 0;
  H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, &index, collect_attribute, &context);
}

void read_dataset(hid_t file, const std::string& path, H5Snapshot& s) {
  const hid_t set = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  if (set < 0) throw std::runtime_error("cannot open dataset " + path);
  const hid_t space = H5Dget_space(set);
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(rank > 0 ? rank : 0);
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  std::size_t n = 1;
  for (const hsize_t d : dims) n *= d;
  const hid_t type = H5Dget_type(set);
  if (H5Tget_class(type) == H5T_FLOAT || H5Tget_class(type) == H5T_INTEGER) {
    std::vector<double> values(n);
    if (H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
      throw std::runtime_error("cannot read dataset " + path);
    s.datasets[path] = std::move(values);
  }
  s.shapes[path] = {dims.begin(), dims.end()};
  H5Tclose(type);
  H5Sclose(space);
  read_attributes(set, path, s);
  H5Dclose(set);
}

struct Visit {
  hid_t file;
  H5Snapshot* snapshot;
};

#if H5_VERSION_GE(1, 12, 0)
using ObjectInfo = H5O_info2_t;
#else
using ObjectInfo = H5O_info_t;
#endif

herr_t visit_object(hid_t, const char* name, const ObjectInfo* info, void* data) {
  auto* v = static_cast<Visit*>(data);
  const std::string path = std::string("/") + name;
  if (info->type == H5O_TYPE_DATASET) read_dataset(v->file, path, *v->snapshot);
  if (info->type == H5O_TYPE_GROUP && std::string(name) != ".") {
    const hid_t group = H5Gopen2(v->file, path.c_str(), H5P_DEFAULT);
    read_attributes(group, path, *v->snapshot);
    H5Gclose(group);
  }
  return 0;
}

}  // namespace

H5Snapshot read_h5(const std::string& path) {
  // As psfsim does: no library exit pass, so filter plugins stay loaded to the end and a
  // leak checker sees their allocations by name (.ci/lsan.supp).
  static const bool no_exit_pass = (H5dont_atexit(), true);
  (void)no_exit_pass;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) throw std::runtime_error("cannot open " + path);
  H5Snapshot s;
  read_attributes(file, "/", s);
  Visit visit{file, &s};
#if H5_VERSION_GE(1, 12, 0)
  const herr_t status =
      H5Ovisit3(file, H5_INDEX_NAME, H5_ITER_INC, visit_object, &visit, H5O_INFO_BASIC);
#else
  const herr_t status =
      H5Ovisit2(file, H5_INDEX_NAME, H5_ITER_INC, visit_object, &visit, H5O_INFO_BASIC);
#endif
  H5Fclose(file);
  if (status < 0) throw std::runtime_error("cannot walk " + path);
  return s;
}

}  // namespace psfsim::test

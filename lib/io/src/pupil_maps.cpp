#include "psfsim/pupil_maps.hpp"

#include <fitsio.h>
#include <hdf5.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <utility>

#include "hdf5_handles.hpp"
#include "map_reader.hpp"
#include "npy_map.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {
namespace {

using map_io::elements;
using map_io::MapReader;

struct Source {
  std::string file;
  std::string dataset;
};

// FILE:DATASET splits at the last colon, unless the whole text names an existing file.
Source split_source(std::string_view text) {
  const std::string whole(text);
  std::error_code ec;
  if (std::filesystem::exists(whole, ec)) return {whole, ""};
  const auto colon = whole.rfind(':');
  if (colon != std::string::npos && colon > 0 && colon + 1 < whole.size())
    return {whole.substr(0, colon), whole.substr(colon + 1)};
  return {whole, ""};
}

// ---- HDF5

// h5py's bool: an enum over an integer with the members FALSE (0) and TRUE.
bool is_h5py_bool(hid_t type) {
  if (H5Tget_nmembers(type) != 2) return false;
  for (const unsigned m : {0u, 1u}) {
    char* const member = H5Tget_member_name(type, m);
    if (member == nullptr) return false;
    const std::string text(member);
    H5free_memory(member);
    if (text != (m == 0 ? "FALSE" : "TRUE")) return false;
  }
  const h5::Handle native(H5Tget_native_type(type, H5T_DIR_ASCEND), H5Tclose, "read a bool type");
  std::vector<unsigned char> value(H5Tget_size(native.get()), 1);
  return H5Tenum_valueof(native.get(), "FALSE", value.data()) >= 0 &&
         std::all_of(value.begin(), value.end(), [](unsigned char b) { return b == 0; });
}

// An h5py bool dataset as 0 and 1 (any nonzero value is true, as NumPy reads it).
bool read_flags(hid_t set, hid_t type, std::vector<double>& values) {
  const h5::Handle native(H5Tget_native_type(type, H5T_DIR_ASCEND), H5Tclose, "read a bool type");
  const std::size_t size = H5Tget_size(native.get());
  std::vector<unsigned char> bytes(values.size() * size);
  if (H5Dread(set, native.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) < 0) return false;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto* v = bytes.data() + i * size;
    values[i] = std::any_of(v, v + size, [](unsigned char b) { return b != 0; }) ? 1.0 : 0.0;
  }
  return true;
}

PupilMap read_hdf5(const Source& source, const MapReader& reader, bool header_only) {
  h5::silence_library_errors();
  const hid_t file_id = H5Fopen(source.file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file_id < 0) reader.fail("cannot open it as an HDF5 file");
  const h5::Handle file(file_id, H5Fclose, "open " + source.file);
  std::string name = source.dataset;
  if (name.empty()) {
    const std::vector<std::string> datasets = h5::dataset_names(file.get());
    if (datasets.size() != 1) {
      std::string list;
      for (const auto& d : datasets) list += (list.empty() ? "" : ", ") + d;
      reader.fail(datasets.empty()
                      ? std::string("no dataset at the file's root: name one as FILE:DATASET")
                      : std::to_string(datasets.size()) + " datasets at the file's root (" + list +
                            "): name one as FILE:DATASET");
    }
    name = datasets.front();
  } else if (H5LTpath_valid(file.get(), name.c_str(), 1) <= 0 ||
             !h5::is_dataset(file.get(), name)) {
    reader.fail("no dataset '" + name + "'");
  }
  const hid_t set_id = H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT);
  if (set_id < 0) reader.fail("cannot open dataset '" + name + "'");
  const h5::Handle set(set_id, H5Dclose, "open " + name);
  const h5::Handle type(H5Dget_type(set.get()), H5Tclose, "read the type of " + name);
  const H5T_class_t type_class = H5Tget_class(type.get());
  const bool flags = type_class == H5T_ENUM && is_h5py_bool(type.get());
  if (type_class != H5T_INTEGER && type_class != H5T_FLOAT && !flags)
    reader.fail("dataset '" + name + "': the dtype must be an integer, a float or a bool");
  const h5::Handle space(H5Dget_space(set.get()), H5Sclose, "read the shape of " + name);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  PupilMap map;
  map.dataset = name;
  reader.set_shape(map, std::vector<std::uint64_t>(dims.begin(), dims.end()));
  if (header_only) return map;
  map.values.resize(elements(map));
  // HDF5 converts integers and floats to double itself, but not enums.
  const bool read = flags ? read_flags(set.get(), type.get(), map.values)
                          : H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                    map.values.data()) >= 0;
  if (!read) reader.fail("cannot read dataset '" + name + "'");
  return map;
}

// ---- FITS (the primary HDU, through CFITSIO)

PupilMap read_fits(const std::string& file, const MapReader& reader, bool header_only) {
  fitsfile* f = nullptr;
  int status = 0;
  const auto cause = [&] {
    char text[FLEN_STATUS] = {};
    fits_get_errstatus(status, text);
    fits_clear_errmsg();
    return std::string(text);
  };
  // The disk-file call: no CFITSIO extended file name syntax in the user's path.
  if (fits_open_diskfile(&f, file.c_str(), READONLY, &status) != 0)
    reader.fail("cannot open it as FITS: " + cause());
  const auto close = [](fitsfile* file) {
    int ignored = 0;
    fits_close_file(file, &ignored);
  };
  const std::unique_ptr<fitsfile, decltype(close)> closer(f, close);
  int bitpix = 0, naxis = 0;
  long naxes[3] = {0, 0, 0};
  if (fits_get_img_param(f, 3, &bitpix, &naxis, naxes, &status) != 0)
    reader.fail("cannot read the primary HDU: " + cause());
  // Every BITPIX (8, 16, 32, 64, -32, -64) is read: CFITSIO converts to double, applying
  // BSCALE and BZERO.
  // NAXIS1 is x, the fastest axis: NumPy's (and astropy's) last dimension.
  std::vector<std::uint64_t> dims(static_cast<std::size_t>(std::max(naxis, 0)), 1);
  for (int a = 1; a <= std::min(naxis, 3); ++a)
    dims[static_cast<std::size_t>(naxis - a)] =
        static_cast<std::uint64_t>(std::max(naxes[a - 1], 0L));
  PupilMap map;
  reader.set_shape(map, dims);
  if (header_only) return map;
  map.values.resize(elements(map));
  // A float image's NaNs pass through to the finite check unchecked (0: no null check, which
  // would also flush denormals to 0); an integer image's BLANK pixels become NaN, refused there.
  double null_value = bitpix > 0 ? std::numeric_limits<double>::quiet_NaN() : 0.0;
  int any_null = 0;
  if (fits_read_img(f, TDOUBLE, 1, static_cast<LONGLONG>(map.values.size()), &null_value,
                    map.values.data(), &any_null, &status) != 0)
    reader.fail("cannot read the image: " + cause());
  return map;
}

}  // namespace

PupilMap read_pupil_map(std::string_view text, std::string_view option, bool header_only) {
  const Source source = split_source(text);
  const MapReader reader(option, source.file);
  std::ifstream in(source.file, std::ios::binary);
  if (!in) reader.fail(std::string("cannot open it: ") + std::strerror(errno));
  char magic[9] = {};
  in.read(magic, sizeof magic);
  const std::string_view head(magic, static_cast<std::size_t>(in.gcount()));
  in.close();
  static constexpr char npy_magic[] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};
  const bool npy = head.substr(0, 6) == std::string_view(npy_magic, sizeof npy_magic);
  const bool fits = head == "SIMPLE  =";
  if ((npy || fits) && !source.dataset.empty())
    reader.fail(":" + source.dataset + ": a dataset name applies to HDF5 files only");
  PupilMap map;
  if (npy) {
    map = map_io::read_npy(source.file, reader, header_only);
  } else if (fits) {
    map = read_fits(source.file, reader, header_only);
  } else {
    h5::silence_library_errors();
    if (H5Fis_hdf5(source.file.c_str()) <= 0) reader.fail("not an HDF5, NumPy .npy or FITS file");
    map = read_hdf5(source, reader, header_only);
  }
  map.source = std::string(text);
  map.file = source.file;
  for (std::size_t i = 0; i < map.values.size(); ++i)
    if (!std::isfinite(map.values[i])) {
      const std::size_t plane = map.rows * map.columns;
      const std::size_t f = i / plane, r = i % plane / map.columns, c = i % map.columns;
      reader.fail(std::string("a non-finite value (") +
                  (std::isnan(map.values[i]) ? "nan" : "inf") + ") at " +
                  (map.stacked ? "frame " + std::to_string(f) + ", " : std::string()) + "row " +
                  std::to_string(r) + ", column " + std::to_string(c));
    }
  return map;
}

void read_pupil_maps(ApertureSpec& a) {
  a.amplitude_map.reset();
  a.opd_map.reset();
  if (!a.amplitude.empty())
    a.amplitude_map = std::make_shared<const PupilMap>(
        read_pupil_map(a.amplitude, flag(Option::pupil_amplitude)));
  if (!a.opd.empty())
    a.opd_map = std::make_shared<const PupilMap>(read_pupil_map(a.opd, flag(Option::pupil_opd)));
}

std::size_t pupil_map_frames(const ApertureSpec& a) {
  std::size_t frames = 0;
  std::string first;
  const std::pair<const std::string*, std::string> maps[] = {
      {&a.amplitude, flag(Option::pupil_amplitude)}, {&a.opd, flag(Option::pupil_opd)}};
  for (const auto& [text, option] : maps) {
    if (text->empty()) continue;
    const PupilMap m = read_pupil_map(*text, option, true);
    if (!m.stacked) continue;
    if (frames != 0 && m.frames != frames)
      throw InputError(std::string(option) + " " + m.file + ": " + std::to_string(m.frames) +
                       " maps, where " + first + " holds " + std::to_string(frames));
    frames = m.frames;
    first = m.file;
  }
  return frames;
}

}  // namespace psfsim

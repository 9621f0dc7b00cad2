#include "psfsim/pupil_maps.hpp"

#include <fitsio.h>
#include <hdf5.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <utility>

#include "hdf5_handles.hpp"
#include "psfsim/errors.hpp"

namespace psfsim {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the .npy reader reads little-endian data in place");

// Larger maps are surely not pupils: 2^32 values would be 32 GiB of doubles.
constexpr std::uint64_t max_values = std::uint64_t{1} << 32;

struct Source {
  std::string file;
  std::string dataset;
};

// Every failure is one InputError line naming the option and the file.
class MapReader {
 public:
  MapReader(std::string_view option, std::string file) : option_(option), file_(std::move(file)) {}
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(option_ + " " + file_ + ": " + why);
  }
  // Checks and records the shape: 2 or 3 dimensions, none empty.
  void set_shape(PupilMap& map, const std::vector<std::uint64_t>& dims) const {
    if (dims.size() != 2 && dims.size() != 3)
      fail("a map has 2 dimensions (rows = y, columns = x), or 3 (one map per frame); this "
           "array has " + std::to_string(dims.size()));
    std::uint64_t total = 1;
    for (const auto d : dims) {
      if (d == 0) fail("an empty dimension");
      if (d > max_values || total * d > max_values) fail("too large for a pupil map");
      total *= d;
    }
    map.stacked = dims.size() == 3;
    map.frames = map.stacked ? static_cast<std::size_t>(dims[0]) : 1;
    map.rows = static_cast<std::size_t>(dims[dims.size() - 2]);
    map.columns = static_cast<std::size_t>(dims[dims.size() - 1]);
  }

 private:
  std::string option_;
  std::string file_;
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

std::size_t elements(const PupilMap& m) { return m.frames * m.rows * m.columns; }

// ---- .npy (NumPy's format versions 1, 2 and 3; the header is a Python dict literal)

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;
};

class DictParser {
 public:
  DictParser(std::string_view text, const MapReader& reader) : t_(text), reader_(reader) {}

  NpyHeader parse() {
    NpyHeader h;
    bool descr = false, order = false, shape = false;
    expect('{');
    while (true) {
      skip();
      if (peek() == '}') break;
      const std::string key = quoted();
      expect(':');
      skip();
      if (key == "descr" && !descr) {
        h.descr = quoted();
        descr = true;
      } else if (key == "fortran_order" && !order) {
        h.fortran_order = boolean();
        order = true;
      } else if (key == "shape" && !shape) {
        h.shape = tuple();
        shape = true;
      } else {
        bad("the header has an unexpected or repeated key '" + key + "'");
      }
      skip();
      if (peek() == ',') ++i_;
      else if (peek() != '}') bad("expected ',' or '}' in the header");
    }
    if (!descr || !order || !shape) bad("the header lacks descr, fortran_order or shape");
    return h;
  }

 private:
  [[noreturn]] void bad(const std::string& why) const {
    reader_.fail("not a valid .npy file: " + why);
  }
  [[nodiscard]] char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }
  void skip() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\t')) ++i_;
  }
  void expect(char c) {
    skip();
    if (peek() != c) bad(std::string("expected '") + c + "' in the header");
    ++i_;
  }
  std::string quoted() {
    skip();
    const char q = peek();
    if (q != '\'' && q != '"') bad("expected a quoted string in the header");
    const auto end = t_.find(q, i_ + 1);
    if (end == std::string_view::npos) bad("an unterminated string in the header");
    std::string s(t_.substr(i_ + 1, end - i_ - 1));
    i_ = end + 1;
    return s;
  }
  bool boolean() {
    if (t_.substr(i_, 4) == "True") {
      i_ += 4;
      return true;
    }
    if (t_.substr(i_, 5) == "False") {
      i_ += 5;
      return false;
    }
    bad("fortran_order must be True or False");
  }
  std::vector<std::uint64_t> tuple() {
    std::vector<std::uint64_t> dims;
    expect('(');
    while (true) {
      skip();
      if (peek() == ')') break;
      std::uint64_t v = 0;
      const std::size_t start = i_;
      while (peek() >= '0' && peek() <= '9') {
        if (v > max_values) bad("a dimension too large");
        v = v * 10 + static_cast<std::uint64_t>(peek() - '0');
        ++i_;
      }
      if (i_ == start) bad("the shape must be a tuple of integers");
      dims.push_back(v);
      skip();
      if (peek() == ',') ++i_;
      else if (peek() != ')') bad("the shape must be a tuple of integers");
    }
    ++i_;
    return dims;
  }

  std::string_view t_;
  const MapReader& reader_;
  std::size_t i_ = 0;
};

PupilMap read_npy(const std::string& file, const MapReader& reader, bool header_only) {
  std::ifstream in(file, std::ios::binary);
  unsigned char prefix[12] = {};
  const auto read = [&](unsigned char* to, std::size_t count) {
    if (!in.read(reinterpret_cast<char*>(to), static_cast<std::streamsize>(count)))
      reader.fail("not a valid .npy file: truncated header");
  };
  read(prefix, 8);
  const int major = prefix[6];
  std::size_t header_length = 0;
  std::size_t data_start = 0;
  if (major == 1) {
    read(prefix + 8, 2);
    header_length = prefix[8] | static_cast<std::size_t>(prefix[9]) << 8;
    data_start = 10 + header_length;
  } else if (major == 2 || major == 3) {
    read(prefix + 8, 4);
    for (int b = 3; b >= 0; --b) header_length = header_length << 8 | prefix[8 + b];
    data_start = 12 + header_length;
  } else {
    reader.fail(".npy format version " + std::to_string(major) + " (versions 1 to 3 are read)");
  }
  if (header_length > (std::size_t{1} << 20))
    reader.fail("not a valid .npy file: a header over 1 MiB");
  std::string header(header_length, '\0');
  read(reinterpret_cast<unsigned char*>(header.data()), header_length);
  const NpyHeader h = DictParser(header, reader).parse();
  std::size_t item = 0;
  if (h.descr == "<f8") item = 8;
  else if (h.descr == "<f4") item = 4;
  else
    reader.fail("dtype '" + h.descr +
                "': a map is little-endian float32 or float64 ('<f4' or '<f8')");
  if (h.fortran_order) reader.fail("a Fortran-ordered array: save it in C order");
  PupilMap map;
  reader.set_shape(map, h.shape);
  const std::size_t count = elements(map);
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec || size != data_start + count * item)
    reader.fail("not a valid .npy file: " +
                std::to_string(size - std::min<std::uintmax_t>(size, data_start)) +
                " bytes of data where the header's shape and dtype need " +
                std::to_string(count * item));
  if (header_only) return map;
  map.values.resize(count);
  in.seekg(static_cast<std::streamoff>(data_start));
  if (item == 8) {
    in.read(reinterpret_cast<char*>(map.values.data()), static_cast<std::streamsize>(count * 8));
  } else {
    std::vector<float> narrow(count);
    in.read(reinterpret_cast<char*>(narrow.data()), static_cast<std::streamsize>(count * 4));
    std::copy(narrow.begin(), narrow.end(), map.values.begin());
  }
  if (!in) reader.fail("cannot read the data");
  return map;
}

// ---- HDF5

herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->push_back(name);
  return 0;
}

bool is_dataset(hid_t file, const std::string& name) {
  const hid_t object = H5Oopen(file, name.c_str(), H5P_DEFAULT);
  if (object < 0) return false;
  const bool dataset = H5Iget_type(object) == H5I_DATASET;
  H5Oclose(object);
  return dataset;
}

PupilMap read_hdf5(const Source& source, const MapReader& reader, bool header_only) {
  h5::silence_library_errors();
  const hid_t file_id = H5Fopen(source.file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file_id < 0) reader.fail("cannot open it as an HDF5 file");
  const h5::Handle file(file_id, H5Fclose, "open " + source.file);
  std::string name = source.dataset;
  if (name.empty()) {
    std::vector<std::string> links;
    hsize_t index = 0;
    H5Literate(file.get(), H5_INDEX_NAME, H5_ITER_INC, &index, collect_name, &links);
    std::vector<std::string> datasets;
    for (const auto& l : links)
      if (is_dataset(file.get(), l)) datasets.push_back(l);
    if (datasets.size() != 1) {
      std::string list;
      for (const auto& d : datasets) list += (list.empty() ? "" : ", ") + d;
      reader.fail(datasets.empty()
                      ? std::string("no dataset at the file's root: name one as FILE:DATASET")
                      : std::to_string(datasets.size()) + " datasets at the file's root (" +
                            list + "): name one as FILE:DATASET");
    }
    name = datasets.front();
  } else if (H5LTpath_valid(file.get(), name.c_str(), 1) <= 0 || !is_dataset(file.get(), name)) {
    reader.fail("no dataset '" + name + "'");
  }
  const hid_t set_id = H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT);
  if (set_id < 0) reader.fail("cannot open dataset '" + name + "'");
  const h5::Handle set(set_id, H5Dclose, "open " + name);
  const h5::Handle type(H5Dget_type(set.get()), H5Tclose, "read the type of " + name);
  const std::size_t size = H5Tget_size(type.get());
  if (H5Tget_class(type.get()) != H5T_FLOAT || (size != 4 && size != 8))
    reader.fail("dataset '" + name + "': the dtype must be float32 or float64");
  const h5::Handle space(H5Dget_space(set.get()), H5Sclose, "read the shape of " + name);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  std::vector<hsize_t> dims(static_cast<std::size_t>(std::max(rank, 0)));
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  PupilMap map;
  map.dataset = name;
  reader.set_shape(map, std::vector<std::uint64_t>(dims.begin(), dims.end()));
  if (header_only) return map;
  map.values.resize(elements(map));
  if (H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, map.values.data()) < 0)
    reader.fail("cannot read dataset '" + name + "'");
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
  if (bitpix != FLOAT_IMG && bitpix != DOUBLE_IMG)
    reader.fail("BITPIX " + std::to_string(bitpix) +
                ": the dtype must be float32 or float64 (BITPIX -32 or -64)");
  // NAXIS1 is x, the fastest axis: NumPy's (and astropy's) last dimension.
  std::vector<std::uint64_t> dims(static_cast<std::size_t>(std::max(naxis, 0)), 1);
  for (int a = 1; a <= std::min(naxis, 3); ++a)
    dims[static_cast<std::size_t>(naxis - a)] =
        static_cast<std::uint64_t>(std::max(naxes[a - 1], 0L));
  PupilMap map;
  reader.set_shape(map, dims);
  if (header_only) return map;
  map.values.resize(elements(map));
  double no_null_check = 0.0;  // NaNs pass through to the finite check
  int any_null = 0;
  if (fits_read_img(f, TDOUBLE, 1, static_cast<LONGLONG>(map.values.size()), &no_null_check,
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
    map = read_npy(source.file, reader, header_only);
  } else if (fits) {
    map = read_fits(source.file, reader, header_only);
  } else {
    h5::silence_library_errors();
    if (H5Fis_hdf5(source.file.c_str()) <= 0) reader.fail("not an HDF5, NumPy .npy or FITS file");
    map = read_hdf5(source, reader, header_only);
  }
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

std::size_t pupil_map_frames(const ApertureSpec& a) {
  std::size_t frames = 0;
  std::string first;
  const std::pair<const std::string*, const char*> maps[] = {{&a.amplitude, "--pupil-amplitude"},
                                                             {&a.opd, "--pupil-opd"}};
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

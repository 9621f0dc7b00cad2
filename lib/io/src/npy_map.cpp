#include "npy_map.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

namespace psfsim::map_io {
namespace {

static_assert(std::endian::native == std::endian::little,
              "'<', '|' and '=' dtypes are read as native, '>' ones swapped");

// The header is a Python dict literal.
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

// The dtypes a map may have: bool, the integers and float32/float64, in either byte order.
struct NpyDtype {
  char kind = '\0';      // 'b', 'i', 'u' or 'f'
  std::size_t size = 0;  // bytes per value
  bool swapped = false;  // big-endian on this little-endian machine
};

NpyDtype parse_dtype(const std::string& descr, const MapReader& reader) {
  NpyDtype t;
  const std::string_view d(descr);
  const bool order = d.size() >= 3 && std::string_view("<>|=").find(d[0]) != d.npos;
  if (order) {
    t.kind = d[1];
    if (d.size() == 3 && d[2] >= '1' && d[2] <= '8') t.size = static_cast<std::size_t>(d[2] - '0');
    t.swapped = d[0] == '>' && t.size > 1;
  }
  const bool ok = (t.kind == 'b' && t.size == 1) ||
                  ((t.kind == 'i' || t.kind == 'u') &&
                   (t.size == 1 || t.size == 2 || t.size == 4 || t.size == 8)) ||
                  (t.kind == 'f' && (t.size == 4 || t.size == 8));
  if (!order || !ok)
    reader.fail("dtype '" + descr +
                "': a map is bool, an integer or float32/float64 ('|b1', '|u1', '<i4', '>f8', "
                "...)");
  return t;
}

// `count` values of type T packed at the front of `values`' storage (byte-swapped when
// asked) become `count` doubles in place. Back to front, double i's 8 bytes overwrite only
// packed values i and later, which are already read: no second buffer the size of the map.
template <typename T>
void widen_in_place(double* values, std::size_t count, bool swapped) {
  auto* bytes = reinterpret_cast<unsigned char*>(values);
  for (std::size_t i = count; i-- > 0;) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, bytes + i * sizeof(T), sizeof(T));
    if (swapped) std::reverse(b, b + sizeof(T));
    T v;
    std::memcpy(&v, b, sizeof(T));
    const double wide = static_cast<double>(v);
    std::memcpy(bytes + i * sizeof(double), &wide, sizeof(double));
  }
}

void widen(std::vector<double>& values, const NpyDtype& t) {
  double* const v = values.data();
  const std::size_t n = values.size();
  const bool swap = t.swapped, sign = t.kind == 'i';
  if (t.kind == 'f') {
    if (t.size == 4) widen_in_place<float>(v, n, swap);
    else if (swap) widen_in_place<double>(v, n, swap);  // native float64 is read in place
    return;
  }
  switch (t.size) {
    case 1:
      sign ? widen_in_place<std::int8_t>(v, n, false) : widen_in_place<std::uint8_t>(v, n, false);
      break;
    case 2:
      sign ? widen_in_place<std::int16_t>(v, n, swap) : widen_in_place<std::uint16_t>(v, n, swap);
      break;
    case 4:
      sign ? widen_in_place<std::int32_t>(v, n, swap) : widen_in_place<std::uint32_t>(v, n, swap);
      break;
    default:
      sign ? widen_in_place<std::int64_t>(v, n, swap) : widen_in_place<std::uint64_t>(v, n, swap);
  }
  if (t.kind == 'b')  // NumPy reads any nonzero byte as True
    for (double& x : values) x = x != 0.0 ? 1.0 : 0.0;
}

// Fortran order ([frame][row][column] with the frame fastest) to C order.
std::vector<double> c_order(const std::vector<double>& fortran, const PupilMap& m) {
  std::vector<double> c(fortran.size());
  const std::size_t f_n = m.frames, r_n = m.rows, c_n = m.columns;
  for (std::size_t f = 0; f < f_n; ++f)
    for (std::size_t r = 0; r < r_n; ++r)
      for (std::size_t col = 0; col < c_n; ++col)
        c[(f * r_n + r) * c_n + col] = fortran[f + f_n * (r + r_n * col)];
  return c;
}

}  // namespace

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
  const NpyDtype dtype = parse_dtype(h.descr, reader);
  const std::size_t item = dtype.size;
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
  in.read(reinterpret_cast<char*>(map.values.data()), static_cast<std::streamsize>(count * item));
  if (!in) reader.fail("cannot read the data");
  widen(map.values, dtype);
  if (h.fortran_order) map.values = c_order(map.values, map);
  return map;
}

}  // namespace psfsim::map_io

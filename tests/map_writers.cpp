#include "map_writers.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>

namespace psfsim::test {
namespace {

// The bytes of `value`, most significant first when `big` (FITS, '>' NumPy dtypes).
template <typename T>
void append(std::string& out, T value, bool big) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  for (std::size_t i = 0; i < sizeof(T); ++i) out += bytes[big ? sizeof(T) - 1 - i : i];
}

// One value of the NumPy dtype `kind` (b, i, u, f) and `size` bytes.
void append_npy(std::string& out, double x, char kind, std::size_t size, bool big) {
  if (kind == 'f' && size == 8) append(out, x, big);
  else if (kind == 'f' && size == 4) append(out, static_cast<float>(x), big);
  else if (kind == 'b') append(out, static_cast<std::uint8_t>(x != 0.0), big);
  else if (kind == 'i' && size == 1) append(out, static_cast<std::int8_t>(x), big);
  else if (kind == 'i' && size == 2) append(out, static_cast<std::int16_t>(x), big);
  else if (kind == 'i' && size == 4) append(out, static_cast<std::int32_t>(x), big);
  else if (kind == 'i' && size == 8) append(out, static_cast<std::int64_t>(x), big);
  else if (kind == 'u' && size == 1) append(out, static_cast<std::uint8_t>(x), big);
  else if (kind == 'u' && size == 2) append(out, static_cast<std::uint16_t>(x), big);
  else if (kind == 'u' && size == 4) append(out, static_cast<std::uint32_t>(x), big);
  else if (kind == 'u' && size == 8) append(out, static_cast<std::uint64_t>(x), big);
  else out.append(size, '\0');
}

}  // namespace

void write_npy(const std::string& path, const Dims& dims, const std::vector<double>& v,
               const std::string& descr, bool fortran) {
  std::string shape = "(";
  for (const auto d : dims) shape += std::to_string(d) + ", ";
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                     ", 'shape': " + shape + "), }";
  while ((10 + dict.size() + 1) % 64 != 0) dict += ' ';
  dict += '\n';
  std::string bytes = "\x93NUMPY";
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(dict.size() & 0xff);
  bytes += static_cast<char>(dict.size() >> 8);
  bytes += dict;
  const bool big = descr[0] == '>';
  const char kind = descr[1];
  const std::size_t size = kind == 'O' ? 8 : std::stoul(descr.substr(2));
  // Fortran order: the first index fastest. C order: the last.
  std::vector<std::size_t> index(dims.size(), 0);
  for (std::size_t n = 0; n < v.size(); ++n) {
    std::size_t c = 0;
    for (std::size_t a = 0; a < dims.size(); ++a) c = c * dims[a] + index[a];
    append_npy(bytes, v[fortran ? c : n], kind, size, big);
    for (std::size_t k = 0; k < dims.size(); ++k) {
      const std::size_t a = fortran ? k : dims.size() - 1 - k;
      if (++index[a] < dims[a]) break;
      index[a] = 0;
    }
  }
  std::ofstream(path, std::ios::binary) << bytes;
}

void write_fits(const std::string& path, const Dims& dims, const std::vector<double>& v, int bitpix,
                const std::vector<std::pair<std::string, std::string>>& cards) {
  std::string header;
  const auto card = [&](const std::string& key, const std::string& value) {
    std::string c = key;
    c.resize(8, ' ');
    if (!value.empty()) {
      c += "= ";
      c += std::string(value.size() < 20 ? 20 - value.size() : 0, ' ') + value;
    }
    c.resize(80, ' ');
    header += c;
  };
  card("SIMPLE", "T");
  card("BITPIX", std::to_string(bitpix));
  card("NAXIS", std::to_string(dims.size()));
  for (std::size_t a = 0; a < dims.size(); ++a)
    card("NAXIS" + std::to_string(a + 1), std::to_string(dims[dims.size() - 1 - a]));
  for (const auto& [key, value] : cards) card(key, value);
  card("END", "");
  header.resize((header.size() + 2879) / 2880 * 2880, ' ');
  std::string data;
  for (const double x : v) {
    switch (bitpix) {
      case -64: append(data, x, true); break;
      case -32: append(data, static_cast<float>(x), true); break;
      case 8: append(data, static_cast<std::uint8_t>(x), true); break;
      case 16: append(data, static_cast<std::int16_t>(x), true); break;
      case 32: append(data, static_cast<std::int32_t>(x), true); break;
      default: append(data, static_cast<std::int64_t>(x), true);  // 64
    }
  }
  data.resize((data.size() + 2879) / 2880 * 2880, '\0');
  std::ofstream(path, std::ios::binary) << header << data;
}

void write_h5(const std::string& path, const std::string& dataset, const Dims& dims,
              const std::vector<double>& v, hid_t file_type, bool truncate) {
  const hid_t file = truncate ? H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)
                              : H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0) << path;
  std::vector<hsize_t> hd(dims.begin(), dims.end());
  const hid_t space = H5Screate_simple(static_cast<int>(hd.size()), hd.data(), nullptr);
  const hid_t links = H5Pcreate(H5P_LINK_CREATE);
  H5Pset_create_intermediate_group(links, 1);
  const hid_t set =
      H5Dcreate2(file, dataset.c_str(), file_type, space, links, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(set, 0) << dataset;
  if (!v.empty()) {
    EXPECT_GE(H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), 0);
  }
  H5Dclose(set);
  H5Pclose(links);
  H5Sclose(space);
  H5Fclose(file);
}

}  // namespace psfsim::test

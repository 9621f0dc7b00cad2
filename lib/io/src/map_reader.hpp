#pragma once
// What the pupil-map readers (pupil_maps.cpp, npy_map.cpp) share: one-line errors naming
// the option and the file, and the shape check.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "psfsim/errors.hpp"
#include "psfsim/pupil_maps.hpp"

namespace psfsim::map_io {

// Larger maps are surely not pupils: 2^32 values would be 32 GiB of doubles.
inline constexpr std::uint64_t max_values = std::uint64_t{1} << 32;

[[nodiscard]] inline std::size_t elements(const PupilMap& m) {
  return m.frames * m.rows * m.columns;
}

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
      fail(
          "a map has 2 dimensions (rows = y, columns = x), or 3 (one map per frame); this "
          "array has " +
          std::to_string(dims.size()));
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

}  // namespace psfsim::map_io

#pragma once
// A pupil map from a NumPy .npy file (format versions 1 to 3).
#include <string>

#include "map_reader.hpp"
#include "psfsim/pupil_maps.hpp"

namespace psfsim::map_io {

// bool, int8 to int64, uint8 to uint64, float32 or float64, in either byte order, in C or
// Fortran order, widened to double in C order. Other dtypes, a malformed header and data of
// the wrong length are errors through `reader`. `header_only` reads the shape alone.
[[nodiscard]] PupilMap read_npy(const std::string& file, const MapReader& reader, bool header_only);

}  // namespace psfsim::map_io

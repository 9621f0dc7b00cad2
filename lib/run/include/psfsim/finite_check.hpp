#pragma once
// Finds a non-finite value (NaN or infinity) in frames of reals: a frame that comes out that
// way is a failure to report, never data to store.
#include <cstddef>
#include <optional>

#include "psfsim/enums.hpp"

namespace psfsim {

// Index of the first frame of `frames` frames of `frame_elements` reals each that holds a
// non-finite value, or nothing. Tests the exponent bits, so it runs at memory speed.
[[nodiscard]] std::optional<std::size_t> first_non_finite_frame(const void* data,
                                                                std::size_t frames,
                                                                std::size_t frame_elements,
                                                                Precision precision);

}  // namespace psfsim

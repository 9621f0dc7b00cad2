#pragma once
// Lays out the phase polynomials of a batch as the pupil kernel reads them: every frame's
// tables padded to the batch's common degree, one contiguous block, one copy to the device.
#include <cstddef>
#include <span>

#include "psfsim/aberration_polynomial.hpp"

namespace psfsim::cuda {

struct BatchTableLayout {
  int degree = 0;         // common degree of the batch
  bool with_rho = false;  // some frame has a nonzero rho table
  int frames = 0;

  [[nodiscard]] std::size_t doubles_per_frame() const noexcept {
    const std::size_t s = static_cast<std::size_t>(degree) + 1;
    return (with_rho ? 2 : 1) * s * s;
  }
  [[nodiscard]] std::size_t doubles() const noexcept { return frames * doubles_per_frame(); }
};

// Throws RuntimeFailure when a polynomial's tables do not match its degree.
[[nodiscard]] BatchTableLayout batch_table_layout(std::span<const AberrationPolynomial> frames);
// Writes layout.doubles() values to `out`.
void pack_phase_tables(std::span<const AberrationPolynomial> frames, const BatchTableLayout& layout,
                       double* out);

}  // namespace psfsim::cuda

#include "psfsim/mft_matrix.hpp"

#include <cmath>
#include <numbers>

namespace psfsim {

std::complex<double> mft_phasor(double turns) {
  const double angle = 2.0 * std::numbers::pi * (turns - std::nearbyint(turns));
  return {std::cos(angle), -std::sin(angle)};
}

}  // namespace psfsim

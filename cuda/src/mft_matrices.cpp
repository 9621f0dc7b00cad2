#include "mft_matrices.hpp"

#include <cmath>
#include <cstddef>
#include <numbers>

namespace psfsim::cuda {

std::vector<std::complex<double>> mft_matrices(const PsfPlan& plan) {
  const std::vector<double>& x = plan.sampled_pupil().coordinates;
  const std::size_t n = x.size();
  const std::size_t k = static_cast<std::size_t>(plan.frame);
  std::vector<std::complex<double>> a;
  a.reserve(plan.channels.size() * k * n);
  for (const SpectralChannel& channel : plan.channels)
    for (std::size_t q = 0; q < k; ++q) {
      const double theta = (static_cast<double>(q) - plan.pixel_centre) * channel.pixel_scale;
      for (std::size_t i = 0; i < n; ++i) {
        // Reduced to a fraction of a turn first (exactly: t - nearbyint(t) rounds nothing), so
        // that a large theta * xi loses no accuracy to the argument of cos and sin.
        const double turns = theta * (x[i] / 2.0);
        const double angle = 2.0 * std::numbers::pi * (turns - std::nearbyint(turns));
        a.emplace_back(std::cos(angle), -std::sin(angle));
      }
    }
  return a;
}

}  // namespace psfsim::cuda

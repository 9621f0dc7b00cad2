#include "psfsim/train_metrics.hpp"

#include <cmath>
#include <limits>

namespace psfsim {

template <typename Real>
void host_metrics(const HostMetricsPlan& plan, const Real* frame, double* row) {
  const int k = plan.frame;
  double* out = row + plan.offset;
  const std::size_t radii = plan.contrast_radii.size();
  if (radii > 0) {
    std::vector<double> sum(radii), squares(radii);
    std::vector<std::size_t> count(radii);
    const double half = contrast_half_width / plan.pixel_scale;  // in pixels
    for (int r = 0; r < k; ++r)
      for (int c = 0; c < k; ++c) {
        const double d = std::hypot(r - plan.axis, c - plan.axis);
        const double v =
            static_cast<double>(frame[static_cast<std::size_t>(r) * k + c]) * plan.to_contrast;
        for (std::size_t i = 0; i < radii; ++i)
          if (std::abs(d - plan.contrast_radii[i] / plan.pixel_scale) < half) {
            sum[i] += v;
            squares[i] += v * v;
            ++count[i];
          }
      }
    for (std::size_t i = 0; i < radii; ++i) {
      if (count[i] == 0) {
        out[i] = out[radii + i] = std::numeric_limits<double>::quiet_NaN();
        continue;
      }
      const double mean = sum[i] / count[i];
      out[i] = mean;
      out[radii + i] = std::sqrt(std::max(0.0, squares[i] / count[i] - mean * mean));
    }
    out += 2 * radii;
  }
  if (plan.throughput) {
    double total = 0.0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(k) * k; ++i) total += frame[i];
    *out = total * plan.energy_scale;
  }
}

template void host_metrics<float>(const HostMetricsPlan&, const float*, double*);
template void host_metrics<double>(const HostMetricsPlan&, const double*, double*);

}  // namespace psfsim

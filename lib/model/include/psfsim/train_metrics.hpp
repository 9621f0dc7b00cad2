#pragma once
// The metrics the run computes on the host from a backend's frames (docs/coronagraphy.md):
// contrast, a radial curve of the frame over the peak of the train without its focal-plane
// masks, and throughput, the detector's share of the entrance pupil's energy. Both backends'
// frames pass through the same code, so that their values agree as their frames do.
#include <cstddef>
#include <vector>

#include "psfsim/enums.hpp"
#include "psfsim/metrics.hpp"

namespace psfsim {

struct HostMetricsPlan {
  int frame = 0;                       // K
  double axis = 0.0;                   // the pixel (row and column) on the optical axis
  double pixel_scale = 0.0;            // lambda_ref/D per pixel
  std::vector<double> contrast_radii;  // lambda_ref/D; empty: no contrast
  bool throughput = false;
  // A frame value times this is contrast; the frame's sum times `energy_scale` is its
  // share of the entrance pupil's energy.
  double to_contrast = 1.0;
  double energy_scale = 1.0;
  std::size_t offset = 0;            // the host's first value in a frame's row
  std::size_t values_per_frame = 0;  // the whole row: the backend's and the host's

  [[nodiscard]] bool empty() const noexcept { return contrast_radii.empty() && !throughput; }
};

// Pixels within this many lambda/D of a radius make its annulus.
inline constexpr double contrast_half_width = 0.5;

// Writes the host's values of one K x K frame to row + plan.offset: for each radius the mean
// and then the standard deviation of its annulus (NaN where no pixel is in it), then the
// throughput.
template <typename Real>
void host_metrics(const HostMetricsPlan& plan, const Real* frame, double* row);

}  // namespace psfsim

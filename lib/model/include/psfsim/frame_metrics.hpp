#pragma once
// docs/spec.md §7's metrics evaluated on the host, for the CPU backends: the frame-domain metrics
// of
// one frame, and the wavefront sums behind rms_wavefront. The formulas are metric_math.hpp's,
// which the GPU's kernels share.
#include <cstddef>

#include "psfsim/metrics.hpp"
#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/pupil_sampling.hpp"

namespace psfsim {

// Sums over the pupil samples of frame `phase.batch_index`: A, A W and A W^2, with W in waves
// at the reference wavelength (the phase polynomial plus the OPD map).
struct WavefrontSums {
  double a = 0.0;
  double aw = 0.0;
  double aw2 = 0.0;
};
[[nodiscard]] WavefrontSums wavefront_sums(const SampledPupil& facts,
                                           const AberrationPolynomial& phase);

// Fills `row` (plan.values_per_frame values) with every metric but ee and mtf for one frame of
// `edge` x `edge` values, which are the backend's unnormalized intensity divided by `to_raw`.
// `phase` is the frame's, for rms_wavefront.
template <typename T>
void frame_metrics(const MetricsPlan& plan, const SampledPupil& facts,
                   const AberrationPolynomial& phase, const T* frame, int edge, double to_raw,
                   double* row);

}  // namespace psfsim

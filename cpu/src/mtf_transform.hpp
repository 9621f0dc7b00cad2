#pragma once
// The MTF metric on the CPU (docs/spec.md §7): the OTF as the 2-D transform of the whole M x M
// focal
// plane's intensity, sampled by metric_math.hpp's radial average.
#include <complex>

#include "fftw_api.hpp"
#include "psfsim/metrics.hpp"

namespace psfsim::cpu {

template <typename T>
class MtfTransform {
 public:
  MtfTransform() = default;
  // Plans one in-place M x M transform, executed on each caller's own buffer. The caller
  // holds fftw_planner_mutex().
  MtfTransform(int padded, unsigned flags);

  // `field`: the frame's whole M x M focal-plane field; `otf`: M x M scratch of the caller's.
  // Writes plan.mtf_radii.size() values to `out`.
  void evaluate(const std::complex<T>* field, std::complex<T>* otf, const MetricsPlan& plan,
                double* out) const;

 private:
  int padded_ = 0;
  FftwPlan<T> plan_;
};

}  // namespace psfsim::cpu

#pragma once
// An optical train's planes (psfsim/train_plan.hpp) on the CPU: each frame's N x N pupil field
// turned in place into the field of the train's last pupil plane, for the detector's MFT. The
// plan's matrices, rounded once to the precision, through complex BLAS products; a pass over
// one whole period (MaskPass::periodic) through FFTW on the field zero-padded to m x m.
#include <complex>
#include <vector>

#include "fftw_api.hpp"
#include "psfsim/train_plan.hpp"

namespace psfsim::cpu {

template <typename Real>
class TrainStage {
 public:
  using Complex = std::complex<Real>;
  TrainStage(const ChannelTrain& channel, int samples);

  // `fields`: `count` frames of N x N, contiguous; one frame at a time on each of `threads`.
  void apply(Complex* fields, int count, int threads);

 private:
  struct Pass {
    int points = 0;
    std::vector<Complex> forward, inverse, weights;
    // A periodic pass: V's entries, and forward transforms in place on the m x m buffer (rows
    // m + 1 apart) at the work area's N x m offset, of its first N rows and of its columns.
    std::vector<Complex> twist;
    FftwPlan<Real> rows, columns;
  };
  struct Step {
    bool stop = false;
    Real keep = 0;
    std::vector<Pass> passes;
    std::vector<Real> mask;
  };
  void apply_one(Complex* field, Complex* work) const;
  void apply_matrices(const Pass& p, const Complex* field, Complex* work, Complex* out) const;
  void apply_periodic(const Pass& p, const Complex* field, Complex* work, Complex* out) const;

  int samples_;
  std::vector<Step> steps_;
  std::size_t work_elements_ = 0;  // per thread: the largest pass's buffers (train_stage.cpp)
  // FFTW-aligned alike, so that every thread's buffer at one offset takes the same plans.
  std::vector<FftwArray<Complex>> work_;
};

extern template class TrainStage<float>;
extern template class TrainStage<double>;

}  // namespace psfsim::cpu

#pragma once
// An optical train's planes (psfsim/train_plan.hpp) on the CPU: each frame's N x N pupil field
// turned in place into the field of the train's last pupil plane, for the detector's MFT. The
// plan's matrices, rounded once to the precision, through complex BLAS products.
#include <complex>
#include <vector>

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
  };
  struct Step {
    bool stop = false;
    Real keep = 0;
    std::vector<Pass> passes;
    std::vector<Real> mask;
  };
  void apply_one(Complex* field, std::vector<Complex>& work) const;

  int samples_;
  std::vector<Step> steps_;
  std::size_t work_elements_ = 0;  // per thread: N x m, m x m, m x N and N x N
  std::vector<std::vector<Complex>> work_;
};

extern template class TrainStage<float>;
extern template class TrainStage<double>;

}  // namespace psfsim::cpu

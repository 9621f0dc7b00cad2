#pragma once
// A cuFFT plan for `batch` unnormalized forward transforms of M x M (rank 2) or of rows of M
// (rank 1), contiguous, made once and bound to the backend's stream so that its launches can
// be captured in a graph. Complex input gives M^rank complex values; real input (the MTF's
// intensity planes) gives the non-redundant half, M x (M/2 + 1) complex values at rank 2.
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstddef>

#include "psfsim/enums.hpp"

namespace psfsim::cuda {

enum class FftInput { complex, real };

struct FftShape {
  int padded = 0;  // M
  long long batch = 0;
  int rank = 2;
  FftInput input = FftInput::complex;
};

class FftPlan {
 public:
  FftPlan(const FftShape& shape, Precision precision, cudaStream_t stream);
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
  ~FftPlan();

  // batch transforms of the plan's precision, on the device. Out of place: cuFFT leaves a
  // C2C/Z2Z input as it was (seen on the H200 for M from 161 to 4096 in both precisions, and
  // checked by the repeated-call tests), so the pupil's zero padding is written only once.
  void forward(const void* in, void* out) const;

  // Work area cuFFT would allocate for such a plan, asked before anything is allocated.
  [[nodiscard]] static std::size_t work_bytes(const FftShape& shape, Precision precision);

 private:
  cufftHandle handle_{};
  Precision precision_;
  FftInput input_;
};

}  // namespace psfsim::cuda

#pragma once
// A cuFFT plan for `batch` unnormalized forward transforms of M x M (rank 2) or of rows of M
// (rank 1), contiguous, made once and bound to the backend's stream so that its launches can
// be captured in a graph.
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstddef>

#include "psfsim/enums.hpp"

namespace psfsim::cuda {

class FftPlan {
 public:
  FftPlan(int padded, long long batch, Precision precision, cudaStream_t stream, int rank = 2);
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
  ~FftPlan();

  // batch * M^rank complex values of the plan's precision, on the device. Out of place: cuFFT
  // leaves a C2C/Z2Z input as it was (seen on the H200 for M from 161 to 4096 in both
  // precisions, and checked by the repeated-call tests), so the pupil's zero padding is
  // written only once.
  void forward(const void* in, void* out) const;

  // Work area cuFFT would allocate for such a plan, asked before anything is allocated.
  [[nodiscard]] static std::size_t work_bytes(int padded, long long batch, Precision precision,
                                              int rank = 2);

 private:
  cufftHandle handle_{};
  Precision precision_;
};

}  // namespace psfsim::cuda

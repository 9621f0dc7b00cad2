#pragma once
// The element-wise steps of a folded mask pass (psfsim/cuda/folded_pass.hpp) over a piece of
// `frames` frames. The folded values are real, each complex value's real and imaginary parts
// in planes `plane` 0 and 1, laid out for the pass's four products (train_stage.cpp):
//   pupil side  [parity][y][frame][plane][x]    P x P positions a parity,
//   window side [parity][ty][frame][plane][tx]  Theta x Theta,
// parity = 2 (x odd) + (y odd).
#include <cuda_runtime_api.h>

#include "device_complex.hpp"

namespace psfsim::cuda {

// The pupil grid's folded positions on the device (psfsim/cuda/mft_fold.hpp's FoldedAxis).
struct FoldedGrid {
  const int* positive = nullptr;  // P samples at c + mu
  const int* negative = nullptr;  // P samples at c - mu, -1 where there is none
  int width = 0;                  // P
  int samples = 0;                // N
};

// folded (pupil side) = the four parities' sums and differences of fields[f] (N x N).
template <typename Real>
void launch_fold_fields(Real* folded, const DeviceComplex<Real>* fields, FoldedGrid grid,
                        int frames, cudaStream_t stream);
// window (window side) = the mask's `parities` parts (FoldedPass::weights, Theta x Theta
// each, complex) applied to it, mixing its parities where there are 4 parts.
template <typename Real>
void launch_weight_folded(Real* window, const DeviceComplex<Real>* weights, int half, int parities,
                          int frames, cudaStream_t stream);
// fields[f] (N x N) = (keep fields[f] + share[f] + the field the four parities of folded
// (pupil side) stand for) * stop: share, the sum of the mask's passes that are not folded
// (nullptr: none), and the stop that follows the mask (nullptr: none).
template <typename Real>
void launch_unfold_sum(DeviceComplex<Real>* fields, Real keep, const Real* folded,
                       const DeviceComplex<Real>* share, const Real* stop, FoldedGrid grid,
                       int frames, cudaStream_t stream);

}  // namespace psfsim::cuda

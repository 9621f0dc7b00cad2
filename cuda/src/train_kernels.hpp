#pragma once
// The element-wise steps of an optical train on the device (psfsim/train_plan.hpp): a stop's
// mask, a pass's focal-plane weights and the sum of a mask's shares, each over a piece's frames,
// and the padding, weighting and crop around a periodic pass's FFTs.
#include <cuda_runtime_api.h>

#include "device_complex.hpp"

namespace psfsim::cuda {

// field[f][i] *= mask[i] for `frames` frames of `elements` values.
template <typename Real>
void launch_multiply_real(DeviceComplex<Real>* field, const Real* mask, long long elements,
                          int frames, cudaStream_t stream);
// field[f][i] *= weights[i].
template <typename Real>
void launch_multiply_complex(DeviceComplex<Real>* field, const DeviceComplex<Real>* weights,
                             long long elements, int frames, cudaStream_t stream);

// The most shares one sum adds: the most lanes a mask's passes run on.
inline constexpr int max_shares = 8;
// Where a mask's passes left their shares of the sum: count buffers laid out as the field.
template <typename Real>
struct Shares {
  const DeviceComplex<Real>* data[max_shares] = {};
  int count = 0;
};
// field[f][i] = (keep field[f][i] + the shares' [f][i]) * mask[i], the mask of the stop that
// follows (nullptr: none).
template <typename Real>
void launch_sum_shares(DeviceComplex<Real>* field, Real keep, const Shares<Real>& shares,
                       const Real* mask, long long elements, int frames, cudaStream_t stream);

// A periodic pass by cuFFT's 2D transforms (MaskPass::twist), frame by frame, v the N entries
// of V, each padded field m x m: padded[f] = V field[f] V in its first N rows and columns,
// zero elsewhere;
template <typename Real>
void launch_pad_twisted(DeviceComplex<Real>* padded, const DeviceComplex<Real>* field,
                        const DeviceComplex<Real>* v, int n, int m, int frames,
                        cudaStream_t stream);
// field[f][i] = conj(field[f][i] * weights[i]): the weights, and the conjugation that turns the
// next forward transform into the inverse;
template <typename Real>
void launch_weight_conjugate(DeviceComplex<Real>* field, const DeviceComplex<Real>* weights,
                             long long elements, int frames, cudaStream_t stream);
// out[f] (N x N) = conj(V padded[f] V) over the first N rows and columns, added to what out
// holds where `accumulate`.
template <typename Real>
void launch_crop_twisted_add(DeviceComplex<Real>* out, const DeviceComplex<Real>* padded,
                             const DeviceComplex<Real>* v, int n, int m, int frames,
                             bool accumulate, cudaStream_t stream);

}  // namespace psfsim::cuda

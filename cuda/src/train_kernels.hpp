#pragma once
// The element-wise steps of an optical train on the device (psfsim/train_plan.hpp): a stop's
// mask, a pass's focal-plane weights and the start of a mask's sum, each over a piece's frames,
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
// out[i] = keep * in[i] over `total` values.
template <typename Real>
void launch_scaled_copy(DeviceComplex<Real>* out, const DeviceComplex<Real>* in, Real keep,
                        long long total, cudaStream_t stream);

// A periodic pass (MaskPass::twist), frame by frame, v the N entries of V:
// padded[f] (m x m) = V field[f] V in its first N rows and columns, zero elsewhere;
template <typename Real>
void launch_pad_twisted(DeviceComplex<Real>* padded, const DeviceComplex<Real>* field,
                        const DeviceComplex<Real>* v, int n, int m, int frames,
                        cudaStream_t stream);
// field[f][i] = conj(field[f][i] * weights[i]): the weights, and the conjugation that turns the
// next forward transform into the inverse;
template <typename Real>
void launch_weight_conjugate(DeviceComplex<Real>* field, const DeviceComplex<Real>* weights,
                             long long elements, int frames, cudaStream_t stream);
// out[f] (N x N) += conj(V padded[f] V) over the first N rows and columns.
template <typename Real>
void launch_crop_twisted_add(DeviceComplex<Real>* out, const DeviceComplex<Real>* padded,
                             const DeviceComplex<Real>* v, int n, int m, int frames,
                             cudaStream_t stream);

}  // namespace psfsim::cuda

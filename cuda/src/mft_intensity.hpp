#pragma once
// The MFT's last kernel: sum_k w_k |E_k|^2 over the channels, normalized, written as K x K
// frames straight to their destination (device memory, or pinned host memory over the bus).
#include <cuda_runtime_api.h>

#include "device_complex.hpp"
#include "psfsim/enums.hpp"

namespace psfsim::cuda {

struct MftIntensityShape {
  int pixels = 0;  // K * K per frame
  int frames = 0;
  int channels = 1;
  long long channel_stride = 0;  // values from one channel's fields to the next
};

// Where the frames go, and the flag any value that is not finite sets (finite_flag.cuh; null:
// not checked).
template <typename Real>
struct MftDestination {
  Real* frames = nullptr;
  int* non_finite = nullptr;
};

// `fields`: channel k's frame f at fields + k * channel_stride + f * pixels, row-major K x K.
// `weights`: device, one per channel. none and peak: the frame is sum_k weights[k] |E_k|^2, so
// the caller folds the normalization's constant into the weights. sum: one block per frame
// computes its total in double in a fixed order (reruns agree bit for bit), then writes the
// frame divided by it; nothing but the frames is written.
template <typename Real>
void launch_mft_intensity(const DeviceComplex<Real>* fields, const MftIntensityShape& shape,
                          const Real* weights, Normalization normalization,
                          const MftDestination<Real>& destination, cudaStream_t stream);

// The same from the folded products' fields (psfsim/cuda/mft_fold.hpp): channel k's frame f
// as two row-major K x K planes, real then imaginary, at fields + k * channel_stride +
// 2 * f * pixels, channel_stride counting reals.
template <typename Real>
void launch_mft_intensity_planar(const Real* fields, const MftIntensityShape& shape,
                                 const Real* weights, Normalization normalization,
                                 const MftDestination<Real>& destination, cudaStream_t stream);

}  // namespace psfsim::cuda

#pragma once
// The middle of a whole-period pass (MaskPass::periodic) by transforms that skip the zero
// padding: of each frame's field, padded to m x m at its top left, only the N rows that hold
// it are stored (N x m), already transformed along their length. One kernel then takes each
// column's m-point transform from those N values, multiplies by the pass's weights and
// conjugates (the inverse transform as a forward one, as the whole-plane path does), and
// transforms again, keeping the N rows that the pass's crop reads. cuFFT's 2D plan would read
// and write all m rows in each of its four passes, for 4N / m of them ever read.
#include <cuda_runtime_api.h>

#include "device_complex.hpp"

namespace psfsim::cuda {

// m a power of two from 32 to 1024, at least N (column_pass_takes).
[[nodiscard]] bool periodic_columns_take(int samples, int points) noexcept;

// Raises the kernel's shared-memory limit where m needs more than 48 KB; once, before any
// launch or graph capture.
template <typename Real>
void prepare_periodic_columns(int points);

// rows: frames x N x m, each row transformed along its length, in place: row j < N of each
// column becomes point j of F conj(G .* F x), x the column's N values padded to m. weights:
// G, m x m row-major as the padded field; twiddles: exp(-2 pi i j / m) for j in [0, m).
template <typename Real>
void launch_periodic_columns(DeviceComplex<Real>* rows, const DeviceComplex<Real>* twiddles,
                             const DeviceComplex<Real>* weights, int samples, int points,
                             int frames, cudaStream_t stream);

}  // namespace psfsim::cuda

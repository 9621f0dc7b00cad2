#pragma once
// A whole-period pass (MaskPass::periodic) by transforms that skip the zero padding, for m a
// power of two from 32 to 1024. Of each frame's field, padded to m x m at its top left, only
// the N rows that hold it are ever stored (N x m):
//   1. a rows' kernel twists the field (V P V) and takes each row's m-point transform from its
//      N values, writing all m points;
//   2. a columns' kernel takes each column's m-point transform from its N rows, multiplies by
//      the pass's weights and conjugates (the inverse transform as a forward one, as the
//      whole-plane path does), and transforms again, keeping the N rows the crop reads;
//   3. a rows' kernel transforms each of those rows, keeps its first N points, twists and
//      conjugates them, and writes or adds them to the pass's share (N x N).
// cuFFT's 2D plan would read and write all m rows in each of its four passes, for 4N / m of
// them ever read, and its 1D rows would read the padding and write points the crop drops.
#include <cuda_runtime_api.h>

#include "device_complex.hpp"

namespace psfsim::cuda {

// Whether a periodic pass of m points on an N-point field runs by these kernels: m a power of
// two from 32 to 1024 (column_pass_takes), at least N.
[[nodiscard]] bool periodic_pass_skips_padding(int samples, int points) noexcept;

// Raises the kernels' shared-memory limit where m needs more than 48 KB; once, before any
// launch or graph capture.
template <typename Real>
void prepare_periodic_pass(int points);

// What a pass's kernels read, on the device: v, V's N entries; twiddles, exp(-2 pi i j / m)
// for j in [0, m); weights, G, m x m row-major as the padded field.
template <typename Real>
struct PeriodicPass {
  const DeviceComplex<Real>* v = nullptr;
  const DeviceComplex<Real>* twiddles = nullptr;
  const DeviceComplex<Real>* weights = nullptr;
  int samples = 0;  // N
  int points = 0;   // m
};

// Steps 1 and 2: rows (frames x N x m) becomes, row j < N of each column, point j of
// F conj(G .* F x), x the column of the twisted field padded to m x m; fields: frames x N x N.
template <typename Real>
void launch_periodic_transform(DeviceComplex<Real>* rows, const DeviceComplex<Real>* fields,
                               const PeriodicPass<Real>& pass, int frames, cudaStream_t stream);

// Step 3: share[f] (N x N) = conj(V (rows[f] F)[:, :N] V), added to what it holds where
// `accumulate`.
template <typename Real>
void launch_periodic_crop(DeviceComplex<Real>* share, const DeviceComplex<Real>* rows,
                          const PeriodicPass<Real>& pass, int frames, bool accumulate,
                          cudaStream_t stream);

}  // namespace psfsim::cuda

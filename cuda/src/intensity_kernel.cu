#include "cuda_check.hpp"
#include "finite_flag.cuh"
#include "intensity_kernel.hpp"

namespace psfsim::cuda {
namespace {

constexpr int block_threads = 256;

// Sum over the block in a fixed order; the result is valid in thread 0.
__device__ double block_sum(double v) {
  __shared__ double warp_sums[block_threads / 32];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < block_threads / 32 ? warp_sums[lane] : 0.0;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  return v;
}

// The values one block owns: rows [first_row, first_row + rows) of one frame.
struct BlockSpan {
  int frame;
  int first_row;
  int count;  // rows * K
};

__device__ inline BlockSpan block_span(const IntensityShape& s) {
  const int frame = blockIdx.x / s.tiling.blocks_per_frame;
  const int part = blockIdx.x - frame * s.tiling.blocks_per_frame;
  const int first_row = part * s.tiling.rows_per_block;
  const int rows = min(s.tiling.rows_per_block, s.frame - first_row);
  return {frame, first_row, rows * s.frame};
}

template <typename Real, bool kSumFrames>
__global__ void __launch_bounds__(block_threads)
    intensity_kernel(const DeviceComplex<Real>* __restrict__ fields, Real* __restrict__ out,
                     IntensityShape s, Real scale, double* __restrict__ block_sums,
                     int* non_finite) {
  const BlockSpan span = block_span(s);
  const long long padded = s.padded;
  const DeviceComplex<Real>* in = fields + span.frame * padded * padded;
  Real* dst = out + (static_cast<long long>(span.frame) * s.frame + span.first_row) * s.frame;
  double total = 0.0;
  for (int idx = threadIdx.x; idx < span.count; idx += block_threads) {
    const int i = idx / s.frame;
    const int j = idx - i * s.frame;
    const DeviceComplex<Real> z =
        in[(s.crop_start + span.first_row + i) * padded + s.crop_start + j];
    const Real v = z.x * z.x + z.y * z.y;
    if constexpr (kSumFrames) total += v;
    const Real scaled = v * scale;
    dst[idx] = scaled;
    flag_non_finite(scaled, non_finite);
  }
  if constexpr (kSumFrames) {
    total = block_sum(total);
    if (threadIdx.x == 0) block_sums[blockIdx.x] = total;
  }
}

// One block per frame: the frame's total from its blocks' partial sums, in a fixed order.
__global__ void __launch_bounds__(block_threads)
    frame_scale_kernel(const double* __restrict__ block_sums, int blocks_per_frame,
                       double* __restrict__ frame_scales) {
  const double* sums = block_sums + static_cast<long long>(blockIdx.x) * blocks_per_frame;
  double total = 0.0;
  for (int b = threadIdx.x; b < blocks_per_frame; b += block_threads) total += sums[b];
  total = block_sum(total);
  if (threadIdx.x == 0) frame_scales[blockIdx.x] = total > 0.0 ? 1.0 / total : 1.0;
}

// `in` and `out` may be the same buffer.
template <typename Real>
__global__ void __launch_bounds__(block_threads)
    apply_scale_kernel(const Real* in, Real* out, IntensityShape s,
                       const double* __restrict__ frame_scales, int* non_finite) {
  const BlockSpan span = block_span(s);
  const long long first = (static_cast<long long>(span.frame) * s.frame + span.first_row) * s.frame;
  const Real scale = static_cast<Real>(frame_scales[span.frame]);
  for (int idx = threadIdx.x; idx < span.count; idx += block_threads) {
    const Real v = in[first + idx] * scale;
    out[first + idx] = v;
    flag_non_finite(v, non_finite);
  }
}

}  // namespace

template <typename Real>
void launch_intensity(const DeviceComplex<Real>* fields, const IntensityShape& shape,
                      Normalization normalization, double peak_scale,
                      const IntensityOutput<Real>& output, cudaStream_t stream) {
  const unsigned blocks = static_cast<unsigned>(shape.frames) * shape.tiling.blocks_per_frame;
  if (normalization != Normalization::sum) {
    const Real scale =
        normalization == Normalization::peak ? static_cast<Real>(peak_scale) : Real(1);
    intensity_kernel<Real, false><<<blocks, block_threads, 0, stream>>>(
        fields, output.destination, shape, scale, nullptr, output.non_finite);
    PSFSIM_CUDA_CHECK_LAUNCH();
    return;
  }
  intensity_kernel<Real, true><<<blocks, block_threads, 0, stream>>>(
      fields, output.unscaled, shape, Real(1), output.block_sums, nullptr);
  PSFSIM_CUDA_CHECK_LAUNCH();
  frame_scale_kernel<<<shape.frames, block_threads, 0, stream>>>(
      output.block_sums, shape.tiling.blocks_per_frame, output.frame_scales);
  PSFSIM_CUDA_CHECK_LAUNCH();
  apply_scale_kernel<Real><<<blocks, block_threads, 0, stream>>>(
      output.unscaled, output.destination, shape, output.frame_scales, output.non_finite);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template void launch_intensity<float>(const DeviceComplex<float>*, const IntensityShape&,
                                      Normalization, double, const IntensityOutput<float>&,
                                      cudaStream_t);
template void launch_intensity<double>(const DeviceComplex<double>*, const IntensityShape&,
                                       Normalization, double, const IntensityOutput<double>&,
                                       cudaStream_t);

}  // namespace psfsim::cuda

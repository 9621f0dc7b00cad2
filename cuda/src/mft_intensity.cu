#include <algorithm>

#include "cuda_check.hpp"
#include "finite_flag.cuh"
#include "mft_intensity.hpp"

namespace psfsim::cuda {
namespace {

constexpr int block_threads = 256;
// Enough blocks to fill an H200 several times over; each thread then strides.
constexpr long long max_blocks = 132LL * 16;

// Channel k's field at frame element i (frame * pixels + pixel), either layout.
template <typename Real>
struct InterleavedFields {
  const DeviceComplex<Real>* __restrict__ fields;
  __device__ Real norm(const MftIntensityShape& s, int k, long long i) const {
    const DeviceComplex<Real> z = fields[k * s.channel_stride + i];
    return z.x * z.x + z.y * z.y;
  }
};
template <typename Real>
struct PlanarFields {
  const Real* __restrict__ fields;
  __device__ Real norm(const MftIntensityShape& s, int k, long long i) const {
    const long long frame = i / s.pixels;
    const Real* re = fields + k * s.channel_stride + i + frame * s.pixels;
    const Real x = re[0];
    const Real y = re[s.pixels];
    return x * x + y * y;
  }
};

template <typename Real, typename Fields>
__device__ inline Real weighted_intensity(const Fields& fields, const MftIntensityShape& s,
                                          const Real* __restrict__ weights, long long i) {
  Real v = Real(0);
  for (int k = 0; k < s.channels; ++k) v += weights[k] * fields.norm(s, k, i);
  return v;
}

template <typename Real, typename Fields>
__global__ void __launch_bounds__(block_threads)
    weighted_intensity_kernel(Fields fields, MftIntensityShape s, const Real* __restrict__ weights,
                              Real* __restrict__ out, int* non_finite) {
  const long long total = static_cast<long long>(s.frames) * s.pixels;
  for (long long i = static_cast<long long>(blockIdx.x) * block_threads + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * block_threads) {
    const Real v = weighted_intensity(fields, s, weights, i);
    out[i] = v;
    flag_non_finite(v, non_finite);
  }
}

// Sum over the block in a fixed order; the result is valid in every thread.
__device__ double block_total(double v) {
  __shared__ double warp_sums[block_threads / 32];
  __shared__ double total;
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    double t = 0.0;
    for (int w = 0; w < block_threads / 32; ++w) t += warp_sums[w];
    total = t;
  }
  __syncthreads();
  return total;
}

// One block per frame: the total first, then the frame recomputed (its fields are in L2 by
// then) and written once, divided by the total.
template <typename Real, typename Fields>
__global__ void __launch_bounds__(block_threads)
    sum_normalized_kernel(Fields fields, MftIntensityShape s, const Real* __restrict__ weights,
                          Real* __restrict__ out, int* non_finite) {
  const long long first = static_cast<long long>(blockIdx.x) * s.pixels;
  double partial = 0.0;
  for (int p = threadIdx.x; p < s.pixels; p += block_threads)
    partial += weighted_intensity(fields, s, weights, first + p);
  const double total = block_total(partial);
  const Real scale = static_cast<Real>(total > 0.0 ? 1.0 / total : 1.0);
  for (int p = threadIdx.x; p < s.pixels; p += block_threads) {
    const Real v = weighted_intensity(fields, s, weights, first + p) * scale;
    out[first + p] = v;
    flag_non_finite(v, non_finite);
  }
}

template <typename Real, typename Fields>
void launch(const Fields& fields, const MftIntensityShape& shape, const Real* weights,
            Normalization normalization, const MftDestination<Real>& destination,
            cudaStream_t stream) {
  if (normalization == Normalization::sum) {
    sum_normalized_kernel<Real, Fields>
        <<<static_cast<unsigned>(shape.frames), block_threads, 0, stream>>>(
            fields, shape, weights, destination.frames, destination.non_finite);
  } else {
    const long long total = static_cast<long long>(shape.frames) * shape.pixels;
    const long long blocks = std::min(max_blocks, (total + block_threads - 1) / block_threads);
    weighted_intensity_kernel<Real, Fields>
        <<<static_cast<unsigned>(blocks), block_threads, 0, stream>>>(
            fields, shape, weights, destination.frames, destination.non_finite);
  }
  PSFSIM_CUDA_CHECK_LAUNCH();
}

}  // namespace

template <typename Real>
void launch_mft_intensity(const DeviceComplex<Real>* fields, const MftIntensityShape& shape,
                          const Real* weights, Normalization normalization,
                          const MftDestination<Real>& destination, cudaStream_t stream) {
  launch(InterleavedFields<Real>{fields}, shape, weights, normalization, destination, stream);
}

template <typename Real>
void launch_mft_intensity_planar(const Real* fields, const MftIntensityShape& shape,
                                 const Real* weights, Normalization normalization,
                                 const MftDestination<Real>& destination, cudaStream_t stream) {
  launch(PlanarFields<Real>{fields}, shape, weights, normalization, destination, stream);
}

#define PSFSIM_INSTANTIATE(Real)                                                                 \
  template void launch_mft_intensity<Real>(const DeviceComplex<Real>*, const MftIntensityShape&, \
                                           const Real*, Normalization,                           \
                                           const MftDestination<Real>&, cudaStream_t);           \
  template void launch_mft_intensity_planar<Real>(const Real*, const MftIntensityShape&,         \
                                                  const Real*, Normalization,                    \
                                                  const MftDestination<Real>&, cudaStream_t);
PSFSIM_INSTANTIATE(float)
PSFSIM_INSTANTIATE(double)
#undef PSFSIM_INSTANTIATE

}  // namespace psfsim::cuda

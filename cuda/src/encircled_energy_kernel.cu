#include <algorithm>

#include "block_sum.cuh"
#include "cuda_check.hpp"
#include "encircled_energy_kernel.hpp"
#include "psfsim/metric_math.hpp"
#include "psfsim/metrics.hpp"

namespace psfsim::cuda {
namespace {

constexpr int block_threads = 256;
constexpr int warps = block_threads / 32;
constexpr int radii_capacity = static_cast<int>(max_ee_radii);


template <typename Real>
__device__ double squared(DeviceComplex<Real> z) {
  return static_cast<double>(z.x) * z.x + static_cast<double>(z.y) * z.y;
}

// |E|^2 at grid index (jy, jx) of frame f's plane (one channel).
template <typename Real>
struct PlaneReader {
  EePlanes<Real> p;
  __device__ double operator()(int f, int, int jy, int jx) const {
    const long long row = (p.axis + static_cast<long long>(p.stride) * jy) % p.padded;
    const long long column = (p.axis + static_cast<long long>(p.stride) * jx) % p.padded;
    const long long at = f * p.frame_stride + row * p.padded + column;
    if (p.intensity != nullptr) return static_cast<double>(p.intensity[at]);
    return squared<Real>(p.fields[at]);
  }
};

// |F|^2 at grid index (jy, jx) of frame f's channel c in the padded transforms.
template <typename Real>
struct GridReader {
  const DeviceComplex<Real>* grid;
  int period;
  int channels;
  __device__ double operator()(int f, int c, int jy, int jx) const {
    const long long cells = static_cast<long long>(period) * period;
    return squared<Real>(grid[(static_cast<long long>(f) * channels + c) * cells +
                              static_cast<long long>(jy) * period + jx]);
  }
};

// One block per frame: each thread takes quadrant points, sums |E|^2 over the grid points
// that fold there, and adds it, times the channel's scale, against every radius's table.
template <typename Real, typename Reader>
__global__ void __launch_bounds__(block_threads)
    ee_sum_kernel(Reader read, EeTables<Real> t, double* __restrict__ out) {
  __shared__ double scratch[warps];
  const int f = blockIdx.x;
  const int points = t.half * t.half;
  double sums[radii_capacity];
#pragma unroll
  for (int r = 0; r < radii_capacity; ++r) sums[r] = 0.0;
  for (int c = 0; c < t.channels; ++c) {
    const double scale = t.scales[c];
    const Real* tables = t.tables + static_cast<long long>(c) * t.radii * points;
    for (int i = threadIdx.x; i < points; i += block_threads) {
      const int fy = i / t.half;
      const int fx = i - fy * t.half;
      const int my = metric::ee_mirror(fy, t.period);
      const int mx = metric::ee_mirror(fx, t.period);
      double v = read(f, c, fy, fx);
      if (mx >= 0) v += read(f, c, fy, mx);
      if (my >= 0) {
        v += read(f, c, my, fx);
        if (mx >= 0) v += read(f, c, my, mx);
      }
      v *= scale;
#pragma unroll
      for (int r = 0; r < radii_capacity; ++r)
        if (r < t.radii)
          sums[r] += v * static_cast<double>(tables[static_cast<long long>(r) * points + i]);
    }
  }
  double* row = out + static_cast<long long>(f) * t.values_per_frame + t.column;
#pragma unroll
  for (int r = 0; r < radii_capacity; ++r) {
    if (r >= t.radii) break;  // the same in every thread
    const double total = block_sum<block_threads>(sums[r], scratch);
    if (threadIdx.x == 0) row[r] = total;
  }
}

template <typename Real>
__global__ void ee_pad_kernel(DeviceComplex<Real>* __restrict__ grid, EePupils<Real> p, int first,
                              int channels, int period, long long count) {
  const long long cells = static_cast<long long>(period) * period;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long transform = i / cells;
    const long long cell = i - transform * cells;
    const int r = static_cast<int>(cell / period);
    const int s = static_cast<int>(cell - static_cast<long long>(r) * period);
    DeviceComplex<Real> z{Real(0), Real(0)};
    if (r < p.samples && s < p.samples) {
      const long long f = first + transform / channels;
      const long long c = transform % channels;
      z = p.pupils[c * p.channel_stride + f * p.frame_stride + (p.first_row + r) * p.row_stride +
                   p.first_column + s];
      if (p.shift_waves != nullptr) {
        double sin_v = 0.0, cos_v = 0.0;
        sincospi(-2.0 * (p.shift_waves[r] + p.shift_waves[s]), &sin_v, &cos_v);
        const double x = static_cast<double>(z.x), y = static_cast<double>(z.y);
        z.x = static_cast<Real>(x * cos_v - y * sin_v);
        z.y = static_cast<Real>(x * sin_v + y * cos_v);
      }
    }
    grid[i] = z;
  }
}

}  // namespace

template <typename Real>
void launch_ee_from_planes(const EePlanes<Real>& planes, const EeTables<Real>& tables, int frames,
                           double* out, cudaStream_t stream) {
  ee_sum_kernel<Real, PlaneReader<Real>>
      <<<static_cast<unsigned>(frames), block_threads, 0, stream>>>(PlaneReader<Real>{planes},
                                                                    tables, out);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launch_ee_pad(DeviceComplex<Real>* grid, const EePupils<Real>& pupils, int first, int frames,
                   int channels, int period, cudaStream_t stream) {
  const long long count = static_cast<long long>(frames) * channels * period * period;
  const long long blocks = std::min<long long>(132LL * 16, (count + 255) / 256);
  ee_pad_kernel<Real><<<static_cast<unsigned>(blocks), 256, 0, stream>>>(grid, pupils, first,
                                                                         channels, period, count);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launch_ee_from_grid(const DeviceComplex<Real>* grid, const EeTables<Real>& tables, int frames,
                         double* out, cudaStream_t stream) {
  ee_sum_kernel<Real, GridReader<Real>>
      <<<static_cast<unsigned>(frames), block_threads, 0, stream>>>(
          GridReader<Real>{grid, tables.period, tables.channels}, tables, out);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

#define PSFSIM_INSTANTIATE(Real)                                                                  \
  template void launch_ee_from_planes<Real>(const EePlanes<Real>&, const EeTables<Real>&, int,    \
                                            double*, cudaStream_t);                               \
  template void launch_ee_pad<Real>(DeviceComplex<Real>*, const EePupils<Real>&, int, int, int,   \
                                    int, cudaStream_t);                                           \
  template void launch_ee_from_grid<Real>(const DeviceComplex<Real>*, const EeTables<Real>&, int, \
                                          double*, cudaStream_t);
PSFSIM_INSTANTIATE(float)
PSFSIM_INSTANTIATE(double)
#undef PSFSIM_INSTANTIATE

}  // namespace psfsim::cuda

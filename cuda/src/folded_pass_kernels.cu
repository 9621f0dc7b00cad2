#include "folded_pass_kernels.hpp"
#include "grid_stride.cuh"

namespace psfsim::cuda {
namespace {

using grid_stride::first_index;
using grid_stride::launch_over;
using grid_stride::stride;

// Where parity `parity`'s plane 0 value of position (a, b) of frame f lies: `side` positions
// on each axis, `frames` frames.
__device__ inline long long folded_index(int parity, int a, long long f, int b, int side,
                                         long long frames) {
  return (((parity * static_cast<long long>(side) + a) * frames + f) * 2) * side + b;
}

// One thread a folded position (a, b) of a frame; its four samples p(+-y, +-x).
template <typename Real>
__global__ void fold_fields_kernel(Real* folded, const DeviceComplex<Real>* fields, FoldedGrid grid,
                                   long long frames, long long total) {
  const int p = grid.width;
  const long long n = grid.samples;
  for (long long i = first_index(); i < total; i += stride()) {
    const long long f = i / (static_cast<long long>(p) * p);
    const int a = static_cast<int>(i / p % p), b = static_cast<int>(i % p);
    const int yp = grid.positive[a], yn = grid.negative[a];
    const int xp = grid.positive[b], xn = grid.negative[b];
    const DeviceComplex<Real>* frame = fields + f * n * n;
    const DeviceComplex<Real> zero{Real(0), Real(0)};
    const DeviceComplex<Real> pp = frame[yp * n + xp];
    const DeviceComplex<Real> pn = xn >= 0 ? frame[yp * n + xn] : zero;
    const DeviceComplex<Real> np = yn >= 0 ? frame[yn * n + xp] : zero;
    const DeviceComplex<Real> nn = yn >= 0 && xn >= 0 ? frame[yn * n + xn] : zero;
    // Sums and differences over x, for y = + and y = -; then over y.
    const DeviceComplex<Real> sx_p{pp.x + pn.x, pp.y + pn.y}, dx_p{pp.x - pn.x, pp.y - pn.y};
    const DeviceComplex<Real> sx_n{np.x + nn.x, np.y + nn.y}, dx_n{np.x - nn.x, np.y - nn.y};
    const DeviceComplex<Real> parities[4] = {
        {sx_p.x + sx_n.x, sx_p.y + sx_n.y},  // y even, x even
        {sx_p.x - sx_n.x, sx_p.y - sx_n.y},  // y odd, x even
        {dx_p.x + dx_n.x, dx_p.y + dx_n.y},  // y even, x odd
        {dx_p.x - dx_n.x, dx_p.y - dx_n.y},  // y odd, x odd
    };
    for (int parity = 0; parity < 4; ++parity) {
      const long long at = folded_index(parity, a, f, b, p, frames);
      folded[at] = parities[parity].x;
      folded[at + p] = parities[parity].y;
    }
  }
}

// z i^k.
template <typename Real>
__device__ inline DeviceComplex<Real> times_i_power(DeviceComplex<Real> z, int k) {
  switch (k & 3) {
    case 1: return {-z.y, z.x};
    case 2: return {-z.x, -z.y};
    case 3: return {z.y, -z.x};
    default: return z;
  }
}

__device__ inline int odd_axes(int parity) { return (parity & 1) + (parity >> 1); }

// One thread a window position (ty, f, tx) of every parity: W_p = sum_r i^(|p| - |q|) G_r R_q,
// q = p xor r (psfsim/cuda/folded_pass.hpp), G_0 alone where `Parts` is 1. A position's row
// (ty, f) gives its place in every parity's block, so a thread divides twice. `Parts` is a
// constant so that every loop unrolls and the samples and parts stay in registers (indexed at
// run time they would go to local memory); `Index` is 32 bits wherever the values fit.
template <typename Real, int Parts, typename Index>
__global__ void weight_folded_kernel(Real* window, const DeviceComplex<Real>* __restrict__ weights,
                                     int half, Index frames, Index total) {
  const Index tt = static_cast<Index>(half) * half, block = 2 * total;  // one parity's values
  const Index step = static_cast<Index>(stride());
  for (Index i = static_cast<Index>(first_index()); i < total; i += step) {
    const Index row = i / half;  // ty * frames + f
    const Index tx = i - row * half, ty = row / frames;
    const Index at = row * 2 * half + tx;
    DeviceComplex<Real> g[Parts], r[4];
#pragma unroll
    for (int part = 0; part < Parts; ++part) g[part] = weights[part * tt + ty * half + tx];
#pragma unroll
    for (int q = 0; q < 4; ++q) r[q] = {window[q * block + at], window[q * block + at + half]};
#pragma unroll
    for (int p = 0; p < 4; ++p) {
      DeviceComplex<Real> sum{Real(0), Real(0)};
#pragma unroll
      for (int part = 0; part < Parts; ++part) {
        const int q = p ^ part;
        const DeviceComplex<Real> z = times_i_power<Real>(
            {g[part].x * r[q].x - g[part].y * r[q].y, g[part].x * r[q].y + g[part].y * r[q].x},
            odd_axes(p) - odd_axes(q) + 4);
        sum.x += z.x;
        sum.y += z.y;
      }
      window[p * block + at] = sum.x;
      window[p * block + at + half] = sum.y;
    }
  }
}

// The kernel for `parities` parts, with indices of 32 bits where every index of the four
// parities' two planes fits.
template <typename Real, int Parts>
void launch_weight_parts(Real* window, const DeviceComplex<Real>* weights, int half,
                         long long frames, long long total, cudaStream_t stream) {
  if (8 * total < (1LL << 32))
    launch_over(weight_folded_kernel<Real, Parts, unsigned>, total, stream, window, weights, half,
                static_cast<unsigned>(frames));
  else
    launch_over(weight_folded_kernel<Real, Parts, long long>, total, stream, window, weights, half,
                frames);
}

template <typename Real>
__global__ void unfold_sum_kernel(DeviceComplex<Real>* fields, Real keep, const Real* folded,
                                  const DeviceComplex<Real>* __restrict__ share,
                                  const Real* __restrict__ stop, FoldedGrid grid, long long frames,
                                  long long total) {
  const int p = grid.width;
  const long long n = grid.samples;
  for (long long i = first_index(); i < total; i += stride()) {
    const long long f = i / (static_cast<long long>(p) * p);
    const int a = static_cast<int>(i / p % p), b = static_cast<int>(i % p);
    DeviceComplex<Real> v[4];  // by parity, as fold_fields_kernel's
    for (int parity = 0; parity < 4; ++parity) {
      const long long at = folded_index(parity, a, f, b, p, frames);
      v[parity] = {folded[at], folded[at + p]};
    }
    // p(sy y, sx x) = ee + sy oe + sx eo + sy sx oo.
    const DeviceComplex<Real> even_x_p{v[0].x + v[1].x, v[0].y + v[1].y};  // ee + oe
    const DeviceComplex<Real> even_x_n{v[0].x - v[1].x, v[0].y - v[1].y};  // ee - oe
    const DeviceComplex<Real> odd_x_p{v[2].x + v[3].x, v[2].y + v[3].y};   // eo + oo
    const DeviceComplex<Real> odd_x_n{v[2].x - v[3].x, v[2].y - v[3].y};   // eo - oo
    const int rows[2] = {grid.positive[a], grid.negative[a]};
    const int cols[2] = {grid.positive[b], grid.negative[b]};
    DeviceComplex<Real>* frame = fields + f * n * n;
    for (int sy = 0; sy < 2; ++sy) {
      if (rows[sy] < 0) continue;
      const DeviceComplex<Real> e = sy == 0 ? even_x_p : even_x_n;
      const DeviceComplex<Real> o = sy == 0 ? odd_x_p : odd_x_n;
      for (int sx = 0; sx < 2; ++sx) {
        if (cols[sx] < 0) continue;
        const DeviceComplex<Real> value = sx == 0 ? DeviceComplex<Real>{e.x + o.x, e.y + o.y}
                                                  : DeviceComplex<Real>{e.x - o.x, e.y - o.y};
        const long long at = rows[sy] * n + cols[sx];
        const Real m = stop != nullptr ? stop[at] : Real(1);
        const DeviceComplex<Real> was = frame[at];
        DeviceComplex<Real> sum{keep * was.x + value.x, keep * was.y + value.y};
        if (share != nullptr) {
          const DeviceComplex<Real> other = share[f * n * n + at];
          sum = {sum.x + other.x, sum.y + other.y};
        }
        frame[at] = {sum.x * m, sum.y * m};
      }
    }
  }
}

}  // namespace

template <typename Real>
void launch_fold_fields(Real* folded, const DeviceComplex<Real>* fields, FoldedGrid grid,
                        int frames, cudaStream_t stream) {
  launch_over(fold_fields_kernel<Real>, static_cast<long long>(grid.width) * grid.width * frames,
              stream, folded, fields, grid, static_cast<long long>(frames));
}

template <typename Real>
void launch_weight_folded(Real* window, const DeviceComplex<Real>* weights, int half, int parities,
                          int frames, cudaStream_t stream) {
  const long long total = static_cast<long long>(half) * half * frames;
  if (parities == 1) launch_weight_parts<Real, 1>(window, weights, half, frames, total, stream);
  else launch_weight_parts<Real, 4>(window, weights, half, frames, total, stream);
}

template <typename Real>
void launch_unfold_sum(DeviceComplex<Real>* fields, Real keep, const Real* folded,
                       const DeviceComplex<Real>* share, const Real* stop, FoldedGrid grid,
                       int frames, cudaStream_t stream) {
  launch_over(unfold_sum_kernel<Real>, static_cast<long long>(grid.width) * grid.width * frames,
              stream, fields, keep, folded, share, stop, grid, static_cast<long long>(frames));
}

template void launch_fold_fields<float>(float*, const float2*, FoldedGrid, int, cudaStream_t);
template void launch_fold_fields<double>(double*, const double2*, FoldedGrid, int, cudaStream_t);
template void launch_weight_folded<float>(float*, const float2*, int, int, int, cudaStream_t);
template void launch_weight_folded<double>(double*, const double2*, int, int, int, cudaStream_t);
template void launch_unfold_sum<float>(float2*, float, const float*, const float2*, const float*,
                                       FoldedGrid, int, cudaStream_t);
template void launch_unfold_sum<double>(double2*, double, const double*, const double2*,
                                        const double*, FoldedGrid, int, cudaStream_t);

}  // namespace psfsim::cuda

#include "periodic_pass_kernel.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

#include "column_pass_kernel.hpp"
#include "cuda_check.hpp"
#include "register_fft.cuh"

namespace psfsim::cuda {
namespace {

using namespace register_fft;

// Blocks of the columns' kernel an SM holds at once. Its barriers leave a lone block's warps
// waiting on each other, so two are asked for up to m = 512, where the registers that leaves
// still hold a thread's points (128 a thread at m = 512 in float, for a few spilled bytes);
// at m = 1024 a thread would spill more than a kilobyte.
template <int M>
inline constexpr int columns_blocks_per_sm = M <= 512 ? 2 : 1;

// A columns' block takes block_columns adjacent columns of one frame, and owns them: it reads
// each column's N values before any barrier and writes the same places after the last, so the
// pass runs in place.
template <typename Real, int M>
__global__ void __launch_bounds__(block_threads<Real, M>, columns_blocks_per_sm<M>)
    periodic_columns_kernel(DeviceComplex<Real>* __restrict__ rows,
                            const DeviceComplex<Real>* __restrict__ twiddles,
                            const DeviceComplex<Real>* __restrict__ weights, int samples) {
  using Complex = DeviceComplex<Real>;
  constexpr int width = block_columns<Real>;
  constexpr int outputs = Factors<M>::m1;  // a thread's points of a column's transform
  Complex* trade = shared_trade<Real>();
  const ColumnPlace<Real, M> place;
  const int c = place.c, t = place.t, column = place.column;
  Complex* at = rows + place.frame * samples * M + column;

  Complex spectrum[outputs];  // by slot, as column_transform numbers them
  column_transform<Real, M>(
      trade, twiddles, t, c,
      [&](int n) {
        return n < samples ? at[static_cast<long long>(n) * M] : Complex{0, 0};
      },
      [&](auto slot, int k, Complex value) {
        const Complex z = times(value, weights[static_cast<long long>(k) * M + column]);
        spectrum[decltype(slot)::value] = {z.x, -z.y};
      });
  __syncthreads();  // every thread's reads of the first transform's trade are done
  unrolled<outputs>([&](auto slot) {
    constexpr int s = decltype(slot)::value;
    trade[output_point<M>(t, s) * width + c] = spectrum[s];
  });
  __syncthreads();
  column_transform<Real, M, true>(
      trade, twiddles, t, c, [&](int n) { return trade[n * width + c]; },
      [&](auto, int k, Complex value) {
        if (k < samples) at[static_cast<long long>(k) * M] = value;
      });
}

// A rows' block takes block_columns adjacent rows of one frame (the last block of a frame
// fewer, where N is not their multiple), M2 threads a row as column_transform has them for a
// column. Rows are read and written along their length, by the whole block, through shared
// memory: point k of the block's row r sits at row_slot(k, r), r turned by k's low bits, so
// that a warp reading along a row and a column's threads reading across rows both spread over
// the banks.
template <typename Real>
__device__ __forceinline__ int row_slot(int point, int row) {
  constexpr int width = block_columns<Real>;
  return point * width + (row ^ (point & (width - 1)));
}

template <typename Real>
struct RowPlace {
  static constexpr int width = block_columns<Real>;
  int c = static_cast<int>(threadIdx.x) % width;  // the block's row a column_transform takes
  int t = static_cast<int>(threadIdx.x) / width;
  long long frame;
  int first;  // the block's first row
  int count;  // its rows
  __device__ explicit RowPlace(int samples) {
    const int groups = (samples + width - 1) / width;
    frame = blockIdx.x / groups;
    first = static_cast<int>(blockIdx.x % groups) * width;
    count = min(width, samples - first);
  }
};

// The transform of the rows in trade (the first `points` of each, the rest zero) back into
// trade, each row's first `keep` points.
template <typename Real, int M>
__device__ __forceinline__ void transform_rows_in_trade(DeviceComplex<Real>* trade,
                                                        const DeviceComplex<Real>* twiddles,
                                                        const RowPlace<Real>& place, int points,
                                                        int keep) {
  using Complex = DeviceComplex<Real>;
  constexpr int outputs = Factors<M>::m1;
  const int c = place.c, t = place.t;
  const bool live = c < place.count;
  Complex spectrum[outputs];
  column_transform<Real, M, true>(
      trade, twiddles, t, c,
      [&](int n) {
        return live && n < points ? trade[row_slot<Real>(n, c)] : Complex{0, 0};
      },
      [&](auto slot, int, Complex value) { spectrum[decltype(slot)::value] = value; });
  __syncthreads();  // every thread's reads of the second stage's trade are done
  unrolled<outputs>([&](auto slot) {
    constexpr int s = decltype(slot)::value;
    const int k = output_point<M>(t, s);
    if (k < keep) trade[row_slot<Real>(k, c)] = spectrum[s];
  });
  __syncthreads();
}

// Step 1: the twisted field's rows, transformed from their N points to all M.
template <typename Real, int M>
__global__ void __launch_bounds__(block_threads<Real, M>)
    periodic_rows_in_kernel(DeviceComplex<Real>* __restrict__ rows,
                            const DeviceComplex<Real>* __restrict__ fields,
                            const DeviceComplex<Real>* __restrict__ v,
                            const DeviceComplex<Real>* __restrict__ twiddles, int samples) {
  constexpr int threads = block_threads<Real, M>;
  DeviceComplex<Real>* trade = shared_trade<Real>();
  const RowPlace<Real> place(samples);
  const long long top = place.frame * samples + place.first;  // the block's first row
  for (int i = static_cast<int>(threadIdx.x); i < place.count * samples; i += threads) {
    const int r = i / samples, x = i - r * samples;
    trade[row_slot<Real>(x, r)] =
        times(times(v[place.first + r], v[x]), fields[(top + r) * samples + x]);
  }
  __syncthreads();
  transform_rows_in_trade<Real, M>(trade, twiddles, place, samples, M);
  for (int i = static_cast<int>(threadIdx.x); i < place.count * M; i += threads) {
    const int r = i / M, k = i % M;
    rows[(top + r) * M + k] = trade[row_slot<Real>(k, r)];
  }
}

// Step 3: the rows transformed, their first N points twisted, conjugated and written to the
// share or added to it.
template <typename Real, int M>
__global__ void __launch_bounds__(block_threads<Real, M>)
    periodic_rows_out_kernel(DeviceComplex<Real>* __restrict__ share,
                             const DeviceComplex<Real>* __restrict__ rows,
                             const DeviceComplex<Real>* __restrict__ v,
                             const DeviceComplex<Real>* __restrict__ twiddles, int samples,
                             bool accumulate) {
  using Complex = DeviceComplex<Real>;
  constexpr int threads = block_threads<Real, M>;
  Complex* trade = shared_trade<Real>();
  const RowPlace<Real> place(samples);
  const long long top = place.frame * samples + place.first;
  for (int i = static_cast<int>(threadIdx.x); i < place.count * M; i += threads) {
    const int r = i / M, k = i % M;
    trade[row_slot<Real>(k, r)] = rows[(top + r) * M + k];
  }
  __syncthreads();
  transform_rows_in_trade<Real, M>(trade, twiddles, place, M, samples);
  for (int i = static_cast<int>(threadIdx.x); i < place.count * samples; i += threads) {
    const int r = i / samples, x = i - r * samples;
    const Complex z = times(times(v[place.first + r], v[x]), trade[row_slot<Real>(x, r)]);
    Complex& out = share[(top + r) * samples + x];
    const Complex before = accumulate ? out : Complex{0, 0};
    out = {before.x + z.x, before.y - z.y};
  }
}

// f(std::integral_constant<int, M>{}) for the pass's m.
template <typename F>
void for_points(int points, F&& f) {
  switch (points) {
    case 32: return f(std::integral_constant<int, 32>{});
    case 64: return f(std::integral_constant<int, 64>{});
    case 128: return f(std::integral_constant<int, 128>{});
    case 256: return f(std::integral_constant<int, 256>{});
    case 512: return f(std::integral_constant<int, 512>{});
    case 1024: return f(std::integral_constant<int, 1024>{});
    default: throw std::logic_error("periodic pass: m=" + std::to_string(points));
  }
}

// Beyond 48 KB a block, the kernel's limit is raised, and the SM's memory is asked to favour
// shared memory so that more than one such block fits.
template <typename Kernel>
void raise_shared_limit(Kernel kernel, int bytes) {
  if (bytes <= 48 * 1024) return;
  PSFSIM_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  PSFSIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                         cudaSharedmemCarveoutMaxShared));
}

template <typename Real>
unsigned row_blocks(int samples, int frames) {
  const long long groups = (samples + block_columns<Real> - 1) / block_columns<Real>;
  return static_cast<unsigned>(groups * frames);
}

}  // namespace

bool periodic_pass_skips_padding(int samples, int points) noexcept {
  return column_pass_takes(points) && samples <= points;
}

template <typename Real>
void prepare_periodic_pass(int points) {
  for_points(points, [](auto m) {
    constexpr int M = decltype(m)::value;
    raise_shared_limit(periodic_columns_kernel<Real, M>, shared_bytes<Real, M>);
    raise_shared_limit(periodic_rows_in_kernel<Real, M>, shared_bytes<Real, M>);
    raise_shared_limit(periodic_rows_out_kernel<Real, M>, shared_bytes<Real, M>);
  });
}

template <typename Real>
void launch_periodic_transform(DeviceComplex<Real>* rows, const DeviceComplex<Real>* fields,
                               const PeriodicPass<Real>& pass, int frames, cudaStream_t stream) {
  for_points(pass.points, [&](auto m) {
    constexpr int M = decltype(m)::value;
    constexpr int threads = block_threads<Real, M>, bytes = shared_bytes<Real, M>;
    periodic_rows_in_kernel<Real, M>
        <<<row_blocks<Real>(pass.samples, frames), threads, bytes, stream>>>(
            rows, fields, pass.v, pass.twiddles, pass.samples);
    PSFSIM_CUDA_CHECK_LAUNCH();
    const long long columns = static_cast<long long>(frames) * (M / block_columns<Real>);
    periodic_columns_kernel<Real, M><<<static_cast<unsigned>(columns), threads, bytes, stream>>>(
        rows, pass.twiddles, pass.weights, pass.samples);
    PSFSIM_CUDA_CHECK_LAUNCH();
  });
}

template <typename Real>
void launch_periodic_crop(DeviceComplex<Real>* share, const DeviceComplex<Real>* rows,
                          const PeriodicPass<Real>& pass, int frames, bool accumulate,
                          cudaStream_t stream) {
  for_points(pass.points, [&](auto m) {
    constexpr int M = decltype(m)::value;
    periodic_rows_out_kernel<Real, M>
        <<<row_blocks<Real>(pass.samples, frames), block_threads<Real, M>, shared_bytes<Real, M>,
           stream>>>(share, rows, pass.v, pass.twiddles, pass.samples, accumulate);
    PSFSIM_CUDA_CHECK_LAUNCH();
  });
}

#define PSFSIM_INSTANTIATE(Real)                                                                  \
  template void prepare_periodic_pass<Real>(int);                                                 \
  template void launch_periodic_transform<Real>(DeviceComplex<Real>*, const DeviceComplex<Real>*, \
                                                const PeriodicPass<Real>&, int, cudaStream_t);    \
  template void launch_periodic_crop<Real>(DeviceComplex<Real>*, const DeviceComplex<Real>*,      \
                                           const PeriodicPass<Real>&, int, bool, cudaStream_t);
PSFSIM_INSTANTIATE(float)
PSFSIM_INSTANTIATE(double)
#undef PSFSIM_INSTANTIATE

}  // namespace psfsim::cuda

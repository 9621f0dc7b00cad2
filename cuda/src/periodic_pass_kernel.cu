#include "periodic_pass_kernel.hpp"

#include <stdexcept>
#include <string>

#include "column_pass_kernel.hpp"
#include "cuda_check.hpp"
#include "register_fft.cuh"

namespace psfsim::cuda {
namespace {

using namespace register_fft;

// A block takes block_columns adjacent columns of one frame, and owns them: it reads each
// column's N values before any barrier and writes the same places after the last, so the
// pass runs in place.
template <typename Real, int M>
__global__ void __launch_bounds__(block_threads<Real, M>)
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

template <typename Real, int M>
void launch_for(DeviceComplex<Real>* rows, const DeviceComplex<Real>* twiddles,
                const DeviceComplex<Real>* weights, int samples, int frames, cudaStream_t stream) {
  const long long blocks = static_cast<long long>(frames) * (M / block_columns<Real>);
  periodic_columns_kernel<Real, M>
      <<<static_cast<unsigned>(blocks), block_threads<Real, M>, shared_bytes<Real, M>, stream>>>(
          rows, twiddles, weights, samples);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template <typename Real, int M>
void raise_shared_limit() {
  if constexpr (shared_bytes < Real, M >> 48 * 1024)
    PSFSIM_CUDA_CHECK(cudaFuncSetAttribute(periodic_columns_kernel<Real, M>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           shared_bytes<Real, M>));
}

}  // namespace

bool periodic_columns_take(int samples, int points) noexcept {
  return column_pass_takes(points) && samples <= points;
}

template <typename Real>
void prepare_periodic_columns(int points) {
  if (points == 512) raise_shared_limit<Real, 512>();
  if (points == 1024) raise_shared_limit<Real, 1024>();
}

template <typename Real>
void launch_periodic_columns(DeviceComplex<Real>* rows, const DeviceComplex<Real>* twiddles,
                             const DeviceComplex<Real>* weights, int samples, int points,
                             int frames, cudaStream_t stream) {
  switch (points) {
    case 32: return launch_for<Real, 32>(rows, twiddles, weights, samples, frames, stream);
    case 64: return launch_for<Real, 64>(rows, twiddles, weights, samples, frames, stream);
    case 128: return launch_for<Real, 128>(rows, twiddles, weights, samples, frames, stream);
    case 256: return launch_for<Real, 256>(rows, twiddles, weights, samples, frames, stream);
    case 512: return launch_for<Real, 512>(rows, twiddles, weights, samples, frames, stream);
    case 1024: return launch_for<Real, 1024>(rows, twiddles, weights, samples, frames, stream);
    default: throw std::logic_error("periodic pass: m=" + std::to_string(points));
  }
}

#define PSFSIM_INSTANTIATE(Real)                                                                \
  template void prepare_periodic_columns<Real>(int);                                            \
  template void launch_periodic_columns<Real>(DeviceComplex<Real>*, const DeviceComplex<Real>*, \
                                              const DeviceComplex<Real>*, int, int, int,        \
                                              cudaStream_t);
PSFSIM_INSTANTIATE(float)
PSFSIM_INSTANTIATE(double)
#undef PSFSIM_INSTANTIATE

}  // namespace psfsim::cuda

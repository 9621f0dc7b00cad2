#include "column_pass_kernel.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "cuda_check.hpp"
#include "register_fft.cuh"

namespace psfsim::cuda {
namespace {

using namespace register_fft;

template <typename Real>
__device__ __forceinline__ void put(DeviceComplex<Real>* out, long long at, DeviceComplex<Real> v) {
  out[at] = v;
}
template <typename Real>
__device__ __forceinline__ void put(Real* out, long long at, DeviceComplex<Real> v) {
  out[at] = v.x * v.x + v.y * v.y;
}

template <typename Real, int M, typename Out>
__global__ void __launch_bounds__(block_threads<Real, M>)
    column_pass_kernel(const DeviceComplex<Real>* __restrict__ rows,
                       const DeviceComplex<Real>* __restrict__ twiddles, ColumnPass pass,
                       Out* __restrict__ out) {
  using Complex = DeviceComplex<Real>;
  const ColumnPlace<Real, M> place;
  const Complex* in = rows + place.frame * pass.samples * M + place.column;
  Out* target = out + place.frame * M * M + place.column;
  column_transform<Real, M>(
      shared_trade<Real>(), twiddles, place.t, place.c,
      [&](int n) {
        const int r = n - pass.offset;
        return r >= 0 && r < pass.samples ? in[static_cast<long long>(r) * M] : Complex{0, 0};
      },
      [&](auto, int k, Complex value) { put<Real>(target, static_cast<long long>(k) * M, value); });
}

template <typename Real, int M, typename Out>
void launch_for(const DeviceComplex<Real>* rows, const DeviceComplex<Real>* twiddles,
                const ColumnPass& pass, Out* out, cudaStream_t stream) {
  const long long blocks = static_cast<long long>(pass.frames) * (M / block_columns<Real>);
  column_pass_kernel<Real, M, Out>
      <<<static_cast<unsigned>(blocks), block_threads<Real, M>, shared_bytes<Real, M>, stream>>>(
          rows, twiddles, pass, out);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template <typename Real, int M>
void raise_shared_limit() {
  if constexpr (shared_bytes < Real, M >> 48 * 1024) {
    PSFSIM_CUDA_CHECK(cudaFuncSetAttribute(column_pass_kernel<Real, M, DeviceComplex<Real>>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           shared_bytes<Real, M>));
    PSFSIM_CUDA_CHECK(cudaFuncSetAttribute(column_pass_kernel<Real, M, Real>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           shared_bytes<Real, M>));
  }
}

}  // namespace

bool column_pass_takes(int padded) noexcept {
  return padded >= 32 && padded <= 1024 && (padded & (padded - 1)) == 0;
}

template <typename Real>
void prepare_column_pass(int padded) {
  if (padded == 512) raise_shared_limit<Real, 512>();
  if (padded == 1024) raise_shared_limit<Real, 1024>();
}

template <typename Real, typename Out>
void launch_column_pass(const DeviceComplex<Real>* rows, const DeviceComplex<Real>* twiddles,
                        const ColumnPass& pass, Out* out, cudaStream_t stream) {
  switch (pass.padded) {
    case 32: return launch_for<Real, 32>(rows, twiddles, pass, out, stream);
    case 64: return launch_for<Real, 64>(rows, twiddles, pass, out, stream);
    case 128: return launch_for<Real, 128>(rows, twiddles, pass, out, stream);
    case 256: return launch_for<Real, 256>(rows, twiddles, pass, out, stream);
    case 512: return launch_for<Real, 512>(rows, twiddles, pass, out, stream);
    case 1024: return launch_for<Real, 1024>(rows, twiddles, pass, out, stream);
    default: throw std::logic_error("column pass: M=" + std::to_string(pass.padded));
  }
}

#define PSFSIM_INSTANTIATE(Real)                                                              \
  template void prepare_column_pass<Real>(int);                                               \
  template void launch_column_pass<Real, DeviceComplex<Real>>(                                \
      const DeviceComplex<Real>*, const DeviceComplex<Real>*, const ColumnPass&,              \
      DeviceComplex<Real>*, cudaStream_t);                                                    \
  template void launch_column_pass<Real, Real>(const DeviceComplex<Real>*,                    \
                                               const DeviceComplex<Real>*, const ColumnPass&, \
                                               Real*, cudaStream_t);
PSFSIM_INSTANTIATE(float)
PSFSIM_INSTANTIATE(double)
#undef PSFSIM_INSTANTIATE

}  // namespace psfsim::cuda

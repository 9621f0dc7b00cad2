#include "cuda_check.hpp"
#include "grid_stride.cuh"
#include "train_kernels.hpp"

namespace psfsim::cuda {
namespace {

using grid_stride::first_index;
using grid_stride::launch_over;
using grid_stride::stride;

template <typename Real>
__global__ void multiply_real_kernel(DeviceComplex<Real>* field, const Real* __restrict__ mask,
                                     long long elements, long long total) {
  for (long long i = first_index(); i < total; i += stride()) {
    const Real m = mask[i % elements];
    field[i].x *= m;
    field[i].y *= m;
  }
}

template <typename Real>
__global__ void multiply_complex_kernel(DeviceComplex<Real>* field,
                                        const DeviceComplex<Real>* __restrict__ weights,
                                        long long elements, long long total) {
  for (long long i = first_index(); i < total; i += stride()) {
    const DeviceComplex<Real> w = weights[i % elements];
    const DeviceComplex<Real> z = field[i];
    field[i].x = z.x * w.x - z.y * w.y;
    field[i].y = z.x * w.y + z.y * w.x;
  }
}

template <typename Real>
__global__ void sum_shares_kernel(DeviceComplex<Real>* field, Real keep, Shares<Real> shares,
                                  const Real* __restrict__ mask, long long elements,
                                  long long total) {
  for (long long i = first_index(); i < total; i += stride()) {
    DeviceComplex<Real> sum{keep * field[i].x, keep * field[i].y};
    for (int j = 0; j < shares.count; ++j) {
      sum.x += shares.data[j][i].x;
      sum.y += shares.data[j][i].y;
    }
    const Real m = mask != nullptr ? mask[i % elements] : Real(1);
    field[i] = {sum.x * m, sum.y * m};
  }
}

template <typename Real>
__device__ DeviceComplex<Real> times(DeviceComplex<Real> a, DeviceComplex<Real> b) {
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}

template <typename Real>
__global__ void pad_twisted_kernel(DeviceComplex<Real>* padded, const DeviceComplex<Real>* field,
                                   const DeviceComplex<Real>* __restrict__ v, int n, int m,
                                   long long total) {
  const long long size = static_cast<long long>(m) * m;
  for (long long i = first_index(); i < total; i += stride()) {
    const long long f = i / size;
    const int r = static_cast<int>((i - f * size) / m), c = static_cast<int>(i % m);
    DeviceComplex<Real> value{Real(0), Real(0)};
    if (r < n && c < n) value = times<Real>(times<Real>(v[r], v[c]), field[(f * n + r) * n + c]);
    padded[i] = value;
  }
}

template <typename Real>
__global__ void weight_conjugate_kernel(DeviceComplex<Real>* field,
                                        const DeviceComplex<Real>* __restrict__ weights,
                                        long long elements, long long total) {
  for (long long i = first_index(); i < total; i += stride()) {
    const DeviceComplex<Real> z = times<Real>(field[i], weights[i % elements]);
    field[i] = {z.x, -z.y};
  }
}

template <typename Real>
__global__ void crop_twisted_add_kernel(DeviceComplex<Real>* out, const DeviceComplex<Real>* padded,
                                        const DeviceComplex<Real>* __restrict__ v, int n, int m,
                                        bool accumulate, long long total) {
  const long long nn = static_cast<long long>(n) * n;
  for (long long i = first_index(); i < total; i += stride()) {
    const long long f = i / nn;
    const int r = static_cast<int>((i - f * nn) / n), c = static_cast<int>(i % n);
    const DeviceComplex<Real> z =
        times<Real>(times<Real>(v[r], v[c]), padded[(f * m + r) * static_cast<long long>(m) + c]);
    const DeviceComplex<Real> before = accumulate ? out[i] : DeviceComplex<Real>{Real(0), Real(0)};
    out[i] = {before.x + z.x, before.y - z.y};
  }
}

}  // namespace

template <typename Real>
void launch_pad_twisted(DeviceComplex<Real>* padded, const DeviceComplex<Real>* field,
                        const DeviceComplex<Real>* v, int n, int m, int frames,
                        cudaStream_t stream) {
  launch_over(pad_twisted_kernel<Real>, static_cast<long long>(m) * m * frames, stream, padded,
              field, v, n, m);
}

template <typename Real>
void launch_weight_conjugate(DeviceComplex<Real>* field, const DeviceComplex<Real>* weights,
                             long long elements, int frames, cudaStream_t stream) {
  launch_over(weight_conjugate_kernel<Real>, elements * frames, stream, field, weights, elements);
}

template <typename Real>
void launch_crop_twisted_add(DeviceComplex<Real>* out, const DeviceComplex<Real>* padded,
                             const DeviceComplex<Real>* v, int n, int m, int frames,
                             bool accumulate, cudaStream_t stream) {
  launch_over(crop_twisted_add_kernel<Real>, static_cast<long long>(n) * n * frames, stream, out,
              padded, v, n, m, accumulate);
}

template <typename Real>
void launch_multiply_real(DeviceComplex<Real>* field, const Real* mask, long long elements,
                          int frames, cudaStream_t stream) {
  launch_over(multiply_real_kernel<Real>, elements * frames, stream, field, mask, elements);
}

template <typename Real>
void launch_multiply_complex(DeviceComplex<Real>* field, const DeviceComplex<Real>* weights,
                             long long elements, int frames, cudaStream_t stream) {
  launch_over(multiply_complex_kernel<Real>, elements * frames, stream, field, weights, elements);
}

template <typename Real>
void launch_sum_shares(DeviceComplex<Real>* field, Real keep, const Shares<Real>& shares,
                       const Real* mask, long long elements, int frames, cudaStream_t stream) {
  launch_over(sum_shares_kernel<Real>, elements * frames, stream, field, keep, shares, mask,
              elements);
}

template void launch_multiply_real<float>(float2*, const float*, long long, int, cudaStream_t);
template void launch_multiply_real<double>(double2*, const double*, long long, int, cudaStream_t);
template void launch_multiply_complex<float>(float2*, const float2*, long long, int, cudaStream_t);
template void launch_multiply_complex<double>(double2*, const double2*, long long, int,
                                              cudaStream_t);
template void launch_sum_shares<float>(float2*, float, const Shares<float>&, const float*,
                                       long long, int, cudaStream_t);
template void launch_sum_shares<double>(double2*, double, const Shares<double>&, const double*,
                                        long long, int, cudaStream_t);
template void launch_pad_twisted<float>(float2*, const float2*, const float2*, int, int, int,
                                        cudaStream_t);
template void launch_pad_twisted<double>(double2*, const double2*, const double2*, int, int, int,
                                         cudaStream_t);
template void launch_weight_conjugate<float>(float2*, const float2*, long long, int, cudaStream_t);
template void launch_weight_conjugate<double>(double2*, const double2*, long long, int,
                                              cudaStream_t);
template void launch_crop_twisted_add<float>(float2*, const float2*, const float2*, int, int, int,
                                             bool, cudaStream_t);
template void launch_crop_twisted_add<double>(double2*, const double2*, const double2*, int, int,
                                              int, bool, cudaStream_t);

}  // namespace psfsim::cuda

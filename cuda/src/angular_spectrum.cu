// The angular-spectrum propagator's kernels (angular_spectrum_kernels.hpp): grid-stride loops
// over every element of the batch, 64-bit indices (a batch may pass 2^31 elements).
#include "angular_spectrum_kernels.hpp"
#include "cuda_check.hpp"

namespace psfsim::cuda {
namespace {

constexpr int threads_per_block = 256;
constexpr long long max_blocks = 65535;

int blocks_for(long long count) {
  const long long blocks = (count + threads_per_block - 1) / threads_per_block;
  return static_cast<int>(blocks < max_blocks ? (blocks > 0 ? blocks : 1) : max_blocks);
}

template <typename Real>
__global__ void pad_fields(const DeviceComplex<Real>* fields, DeviceComplex<Real>* padded,
                           AngularSpectrumShape s) {
  const long long m = s.padded, n = s.samples;
  const long long count = static_cast<long long>(s.fields) * m * m;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long f = i / (m * m), at = i % (m * m);
    const long long r = at / m - s.offset, c = at % m - s.offset;
    DeviceComplex<Real> v{};
    if (r >= 0 && r < n && c >= 0 && c < n) v = fields[f * n * n + r * n + c];
    padded[i] = v;
  }
}

template <typename Real>
__global__ void apply_transfer(DeviceComplex<Real>* spectra, const DeviceComplex<Real>* transfer,
                               AngularSpectrumShape s) {
  const long long area = static_cast<long long>(s.padded) * s.padded;
  const long long count = static_cast<long long>(s.fields) * area;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const DeviceComplex<Real> a = spectra[i], h = transfer[i % area];
    spectra[i] = DeviceComplex<Real>{a.x * h.x - a.y * h.y, a.x * h.y + a.y * h.x};
  }
}

template <typename Real>
__global__ void crop_fields(const DeviceComplex<Real>* padded, DeviceComplex<Real>* fields,
                            AngularSpectrumShape s) {
  const long long m = s.padded, n = s.samples;
  const long long count = static_cast<long long>(s.fields) * n * n;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long f = i / (n * n), at = i % (n * n);
    const long long r = at / n + s.offset, c = at % n + s.offset;
    fields[i] = padded[f * m * m + r * m + c];
  }
}

}  // namespace

template <typename Real>
void launch_pad_fields(const DeviceComplex<Real>* fields, DeviceComplex<Real>* padded,
                       const AngularSpectrumShape& shape, cudaStream_t stream) {
  const long long count = static_cast<long long>(shape.fields) * shape.padded * shape.padded;
  pad_fields<Real><<<blocks_for(count), threads_per_block, 0, stream>>>(fields, padded, shape);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launch_apply_transfer(DeviceComplex<Real>* spectra, const DeviceComplex<Real>* transfer,
                           const AngularSpectrumShape& shape, cudaStream_t stream) {
  const long long count = static_cast<long long>(shape.fields) * shape.padded * shape.padded;
  apply_transfer<Real>
      <<<blocks_for(count), threads_per_block, 0, stream>>>(spectra, transfer, shape);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launch_crop_fields(const DeviceComplex<Real>* padded, DeviceComplex<Real>* fields,
                        const AngularSpectrumShape& shape, cudaStream_t stream) {
  const long long count = static_cast<long long>(shape.fields) * shape.samples * shape.samples;
  crop_fields<Real><<<blocks_for(count), threads_per_block, 0, stream>>>(padded, fields, shape);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template void launch_pad_fields<float>(const float2*, float2*, const AngularSpectrumShape&,
                                       cudaStream_t);
template void launch_pad_fields<double>(const double2*, double2*, const AngularSpectrumShape&,
                                        cudaStream_t);
template void launch_apply_transfer<float>(float2*, const float2*, const AngularSpectrumShape&,
                                           cudaStream_t);
template void launch_apply_transfer<double>(double2*, const double2*, const AngularSpectrumShape&,
                                            cudaStream_t);
template void launch_crop_fields<float>(const float2*, float2*, const AngularSpectrumShape&,
                                        cudaStream_t);
template void launch_crop_fields<double>(const double2*, double2*, const AngularSpectrumShape&,
                                         cudaStream_t);

}  // namespace psfsim::cuda

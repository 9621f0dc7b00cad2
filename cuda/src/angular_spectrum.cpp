#include "angular_spectrum.hpp"

#include <stdexcept>
#include <type_traits>
#include <string>
#include <vector>

#include "angular_spectrum_kernels.hpp"
#include "cuda_check.hpp"

namespace psfsim::cuda {
namespace {

constexpr cufftType transform_type(bool single) { return single ? CUFFT_C2C : CUFFT_Z2Z; }

void execute(cufftHandle plan, float2* data, int direction) {
  PSFSIM_CUDA_CHECK(cufftExecC2C(plan, data, data, direction));
}
void execute(cufftHandle plan, double2* data, int direction) {
  PSFSIM_CUDA_CHECK(cufftExecZ2Z(plan, data, data, direction));
}

}  // namespace

template <typename Real>
std::size_t AngularSpectrumDevice<Real>::bytes(const AngularSpectrumGrid& grid,
                                               int max_fields) noexcept {
  const std::size_t area = static_cast<std::size_t>(grid.padded) * grid.padded;
  return (static_cast<std::size_t>(max_fields) + 1) * area * sizeof(Complex);
}

template <typename Real>
AngularSpectrumDevice<Real>::AngularSpectrumDevice(const AngularSpectrumGrid& grid, int max_fields,
                                                   cudaStream_t stream)
    : grid_(grid), max_fields_(max_fields), stream_(stream) {
  check_angular_spectrum(grid_);
  if (max_fields < 1)
    throw std::invalid_argument("AngularSpectrumDevice: max_fields " + std::to_string(max_fields) +
                                " must be at least 1");
  if (grid_.distance_m == 0.0) return;  // the identity needs no transform
  const int m = grid_.padded;
  offset_ = (m - grid_.samples) / 2;
  const std::size_t area = static_cast<std::size_t>(m) * m;
  // The inverse transform is cuFFT's unnormalized one: H carries the 1/M^2.
  const std::vector<std::complex<double>> h =
      angular_spectrum_transfer(grid_, 1.0 / static_cast<double>(area));
  std::vector<Complex> host(area);
  for (std::size_t i = 0; i < area; ++i)
    host[i] = Complex{static_cast<Real>(h[i].real()), static_cast<Real>(h[i].imag())};
  transfer_ = DeviceBuffer<Complex>(area);
  PSFSIM_CUDA_CHECK(
      cudaMemcpy(transfer_.data(), host.data(), transfer_.bytes(), cudaMemcpyHostToDevice));
  work_ = DeviceBuffer<Complex>(static_cast<std::size_t>(max_fields) * area);
  (void)plan_for(max_fields);
}

template <typename Real>
AngularSpectrumDevice<Real>::~AngularSpectrumDevice() {
  for (const auto& [fields, plan] : plans_) cufftDestroy(plan);
}

template <typename Real>
cufftHandle AngularSpectrumDevice<Real>::plan_for(int fields) {
  if (const auto found = plans_.find(fields); found != plans_.end()) return found->second;
  cufftHandle plan{};
  PSFSIM_CUDA_CHECK(cufftCreate(&plan));
  try {
    long long n[2] = {grid_.padded, grid_.padded};
    std::size_t work = 0;
    PSFSIM_CUDA_CHECK(cufftMakePlanMany64(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0,
                                          transform_type(std::is_same_v<Real, float>), fields,
                                          &work));
    PSFSIM_CUDA_CHECK(cufftSetStream(plan, stream_));
  } catch (...) {
    cufftDestroy(plan);
    throw;
  }
  plans_.emplace(fields, plan);
  return plan;
}

template <typename Real>
void AngularSpectrumDevice<Real>::propagate(const Complex* in, Complex* out, int fields) {
  if (fields < 1 || fields > max_fields_)
    throw std::invalid_argument("AngularSpectrumDevice: " + std::to_string(fields) +
                                " fields in a call, outside 1 to " + std::to_string(max_fields_));
  const AngularSpectrumShape shape{grid_.samples, grid_.padded, offset_, fields};
  if (grid_.distance_m == 0.0) {
    if (in != out)
      PSFSIM_CUDA_CHECK(cudaMemcpyAsync(
          out, in,
          static_cast<std::size_t>(fields) * grid_.samples * grid_.samples * sizeof(Complex),
          cudaMemcpyDeviceToDevice, stream_));
    return;
  }
  const cufftHandle plan = plan_for(fields);
  launch_pad_fields<Real>(in, work_.data(), shape, stream_);
  execute(plan, work_.data(), CUFFT_FORWARD);
  launch_apply_transfer<Real>(work_.data(), transfer_.data(), shape, stream_);
  execute(plan, work_.data(), CUFFT_INVERSE);
  launch_crop_fields<Real>(work_.data(), out, shape, stream_);
}

template class AngularSpectrumDevice<float>;
template class AngularSpectrumDevice<double>;

}  // namespace psfsim::cuda

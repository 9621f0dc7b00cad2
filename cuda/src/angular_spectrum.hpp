#pragma once
// The angular-spectrum propagator between two parallel planes on the GPU (cuFFT), batched,
// sampling kept (docs/physical-optics.md, "The angular-spectrum propagator"): each N x N field
// of pitch dx is zero-padded to M x M, E' = IFFT(FFT(E) H), cropped back to the central N x N.
// The same grid, range check and transfer function as the CPU's (psfsim/angular_spectrum_grid.hpp).
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <map>

#include "device_complex.hpp"
#include "device_memory.hpp"
#include "psfsim/angular_spectrum_grid.hpp"

namespace psfsim::cuda {

template <typename Real>
class AngularSpectrumDevice {
 public:
  using Complex = DeviceComplex<Real>;

  // Throws InputError (check_angular_spectrum) for a grid or distance out of range; holds the
  // transfer function (computed on the host in double) and room for `max_fields` padded grids
  // on the device, and plans cuFFT on `stream`.
  AngularSpectrumDevice(const AngularSpectrumGrid& grid, int max_fields,
                        cudaStream_t stream = nullptr);
  AngularSpectrumDevice(const AngularSpectrumDevice&) = delete;
  AngularSpectrumDevice& operator=(const AngularSpectrumDevice&) = delete;
  ~AngularSpectrumDevice();

  // `fields` (1 to max_fields) N x N row-major fields, one after another in device memory,
  // propagated into `out` (which may be `in`), asynchronously on the stream. z = 0 copies.
  void propagate(const Complex* in, Complex* out, int fields);

  [[nodiscard]] const AngularSpectrumGrid& grid() const noexcept { return grid_; }
  // Device bytes the propagator holds for `max_fields`, before cuFFT's work areas.
  [[nodiscard]] static std::size_t bytes(const AngularSpectrumGrid& grid, int max_fields) noexcept;

 private:
  cufftHandle plan_for(int fields);

  AngularSpectrumGrid grid_;
  int max_fields_ = 0;
  cudaStream_t stream_ = nullptr;
  int offset_ = 0;
  DeviceBuffer<Complex> work_;        // max_fields padded grids
  DeviceBuffer<Complex> transfer_;    // H / M^2, FFT order
  std::map<int, cufftHandle> plans_;  // one per batch size a call used
};

}  // namespace psfsim::cuda

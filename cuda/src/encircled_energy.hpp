#pragma once
// docs/metrics.md's exact `ee` for the GPU backends: the plan's weight tables
// (psfsim/encircled_energy_weights.hpp) in device memory, and what a call issues on its
// stream: from the FFT's whole planes where they are a full-period grid, else from the pupil
// fields that the propagation transforms, padded and transformed here by cuFFT in chunks of
// bounded memory. The kernels are encircled_energy_kernel.cu's.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "device_memory.hpp"
#include "encircled_energy_kernel.hpp"
#include "fft_plan.hpp"
#include "psfsim/psf_plan.hpp"

namespace psfsim::cuda {

template <typename Real>
class DeviceEncircledEnergy {
 public:
  using Complex = DeviceComplex<Real>;

  // Whether an FFT plan's M x M planes serve (encircled_energy_stride(N, M) > 0).
  [[nodiscard]] static bool planes_serve(const PsfPlan& plan);
  // Device memory for `from_planes` (the tables) or for pupils (the tables, the chunk
  // buffer and cuFFT's work area).
  [[nodiscard]] static std::size_t device_bytes(const PsfPlan& plan, bool from_planes);

  DeviceEncircledEnergy(const PsfPlan& plan, bool from_planes, cudaStream_t stream);

  [[nodiscard]] bool reads_planes() const noexcept { return stride_ > 0; }
  // Frames [0, frames) into `out` (frame 0's metric row, device or mapped pinned memory).
  void from_planes(const Complex* fields, const Real* intensity, long long frame_stride, int frames,
                   double* out, cudaStream_t stream) const;
  void from_pupils(const EePupils<Real>& pupils, int frames, double* out,
                   cudaStream_t stream) const;

 private:
  int padded_ = 0;
  int stride_ = 0;        // planes: every stride-th row and column; 0 for pupils
  int chunk_frames_ = 0;  // pupils: frames a transform chunk holds
  EeTables<Real> tables_;
  DeviceBuffer<Real> table_data_;
  DeviceBuffer<double> scales_;
  DeviceBuffer<Complex> grid_;  // pupils: chunk_frames x channels x L x L
  std::unique_ptr<FftPlan> fft_;
};

}  // namespace psfsim::cuda

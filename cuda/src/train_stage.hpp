#pragma once
// An optical train's planes (psfsim/train_plan.hpp) on the device: each frame's N x N pupil
// field turned in place into the field of the train's last pupil plane, before the
// detector's products. The plan's matrices are rounded once to Real and uploaded; a pass is
// four strided-batched cuBLAS products over the piece's frames and one element-wise kernel,
// or, over one whole period (MaskPass::periodic), two batched cuFFT transforms in place on
// the field zero-padded to m x m.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "device_complex.hpp"
#include "device_memory.hpp"
#include "fft_plan.hpp"
#include "mft_blas.hpp"
#include "psfsim/train_plan.hpp"

namespace psfsim::cuda {

template <typename Real>
class TrainStage {
 public:
  using Complex = DeviceComplex<Real>;
  // Work buffers and transforms for `frames` frames at once, on `stream`.
  TrainStage(const ChannelTrain& channel, int samples, int frames, cudaStream_t stream);

  // Device memory a stage of this train needs per frame of a piece (cuFFT's work area
  // included, at most one more padded field), and in all for its matrices: for the backend's
  // memory budget before any is allocated.
  [[nodiscard]] static std::size_t bytes_per_frame(const ChannelTrain& channel, int samples);
  [[nodiscard]] static std::size_t constant_bytes(const ChannelTrain& channel, int samples);

  // Queues the train on `fields` (count <= frames frames of N x N, contiguous) on the
  // handle's stream, the constructor's. A periodic pass transforms all `frames` padded fields
  // whatever the count, as the FFT backend's plans do: the extra ones are stale and unread.
  void issue(const BlasHandle& blas, Complex* fields, int count, cudaStream_t stream) const;

 private:
  struct Pass {
    int points = 0;
    DeviceBuffer<Complex> forward, inverse, weights;
    DeviceBuffer<Complex> twist;  // periodic: V's N entries, and its transforms
    std::unique_ptr<FftPlan> fft;
  };
  void issue_matrices(const BlasHandle& blas, const Pass& p, const Complex* fields, int count,
                      cudaStream_t stream) const;
  void issue_periodic(const Pass& p, const Complex* fields, int count, cudaStream_t stream) const;
  struct Step {
    bool stop = false;
    Real keep = 0;
    std::vector<Pass> passes;
    DeviceBuffer<Real> mask;
  };

  int samples_;
  std::vector<Step> steps_;
  DeviceBuffer<Complex> rows_, focal_, back_, out_;  // per frame: N x m, m x m, m x N, N x N
};

}  // namespace psfsim::cuda

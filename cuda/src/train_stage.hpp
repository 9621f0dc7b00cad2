#pragma once
// An optical train's planes (psfsim/train_plan.hpp) on the device: each frame's N x N pupil
// field turned in place into the field of the train's last pupil plane, before the
// detector's products. The plan's matrices are rounded once to Real and uploaded; a pass is
// four strided-batched cuBLAS products over the piece's frames and one element-wise kernel,
// or, over one whole period (MaskPass::periodic), two transforms of the field zero-padded to
// m x m: for power-of-two m, three kernels that store only the N rows that hold the field
// (periodic_pass_kernel.hpp), else two batched cuFFT 2D transforms in place.
//
// A mask's passes are independent until their shares are summed. For a few frames a pass's
// products occupy a fraction of the GPU and a call's time is the sum of its launches'
// latencies, so there the passes run side by side: the first on the backend's stream, each
// other on a lane of its own (stream, cuBLAS handle, work buffers and share), forked from and
// joined back to the backend's stream, which a graph capture follows. For more frames they
// run in turn on the backend's stream, adding into one share. One kernel then adds the
// shares to the field the mask lets through and applies the stop that follows.
//
// In turn, a mask whose passes' windows and weights are all symmetric (a spot and its rim)
// runs folded (psfsim/cuda/folded_pass.hpp): the field's four parities, folded once, through
// each pass's four real products (a quarter of the complex products' operations) into one
// sum, which one kernel unfolds into the field the mask lets through, times the stop.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <vector>

#include "device_complex.hpp"
#include "device_memory.hpp"
#include "fft_plan.hpp"
#include "folded_pass_kernels.hpp"
#include "mft_blas.hpp"
#include "periodic_pass_kernel.hpp"
#include "psfsim/train_plan.hpp"
#include "stream_and_events.hpp"

namespace psfsim::cuda {

// Pieces of at most this many frames run a mask's passes side by side.
inline constexpr int side_by_side_frames = 16;

template <typename Real>
class TrainStage {
 public:
  using Complex = DeviceComplex<Real>;
  // Work buffers and transforms for `frames` frames at once, on `stream`; `coordinates` are
  // the pupil grid's (for the folded passes).
  TrainStage(const ChannelTrain& channel, const std::vector<double>& coordinates, int frames,
             cudaStream_t stream);

  // Device memory a stage of this train needs per frame of a piece on the backend's stream
  // (cuFFT's work area included, at most one more padded field), and in all beside that for
  // `frames` frames: its matrices and the other lanes. For the backend's memory budget
  // before any is allocated.
  [[nodiscard]] static std::size_t bytes_per_frame(const ChannelTrain& channel, int samples);
  [[nodiscard]] static std::size_t constant_bytes(const ChannelTrain& channel, int samples,
                                                  int frames);

  // Queues the train on `fields` (count <= frames frames of N x N, contiguous) on the
  // handle's stream, the constructor's. A periodic pass by cuFFT transforms all `frames` padded
  // fields whatever the count, as the FFT backend's plans do: the extra ones are stale and
  // unread.
  void issue(const BlasHandle& blas, Complex* fields, int count, cudaStream_t stream) const;

 private:
  struct Pass {
    int points = 0;
    std::size_t lane = 0;  // the lane it runs on: its place in its mask, mod the lanes
    DeviceBuffer<Complex> forward, inverse, weights;
    DeviceBuffer<Complex> twist;   // periodic: V's N entries
    std::unique_ptr<FftPlan> fft;  // periodic, by cuFFT's 2D transforms
    // Periodic, m a power of two: periodic_pass_kernel's transforms; twiddles are its factors.
    bool skips_padding = false;
    DeviceBuffer<Complex> twiddles;
    // Folded (FoldedPass): Theta, 0 where the pass is not; its matrices and weights.
    int half = 0;
    int parities = 1;  // FoldedPass::parities
    DeviceBuffer<Real> folded_forward, folded_inverse;
    DeviceBuffer<Complex> folded_weights;
    // A pass computed by transforms rather than products: it adds to lane 0's share beside a
    // folded mask's sum.
    [[nodiscard]] bool by_transforms() const { return fft != nullptr || skips_padding; }
  };
  // Where a pass runs, and the work buffers it uses there.
  struct Lane {
    const BlasHandle* blas = nullptr;
    cudaStream_t stream = nullptr;
    Complex *rows = nullptr, *focal = nullptr, *back = nullptr, *share = nullptr;
  };
  // A lane beside the backend's stream: its own stream, handle and buffers.
  struct SideLane {
    SideLane(std::size_t rows, std::size_t focal, std::size_t back, std::size_t share);
    Stream stream;
    BlasHandle blas;
    DeviceBuffer<Complex> rows, focal, back, share;
    Event done{cudaEventDisableTiming};
  };
  struct Step {
    bool stop = false;
    bool folded = false;  // every pass folded but those by FFTs
    Real keep = 0;
    std::vector<Pass> passes;
    DeviceBuffer<Real> mask;
  };

  [[nodiscard]] Lane lane(std::size_t index, const BlasHandle& blas, cudaStream_t stream) const;
  [[nodiscard]] PeriodicPass<Real> periodic(const Pass& p) const;
  // The mask's passes and their sum into `fields`, times `then_stop` (nullptr: no stop).
  void issue_mask(const Step& s, const BlasHandle& blas, Complex* fields, int count,
                  const Real* then_stop, cudaStream_t stream) const;
  // A pass up to its share of the sum, and the share written into its lane's, or added.
  void issue_transform(const Pass& p, const Lane& at, const Complex* fields, int count) const;
  void issue_share(const Pass& p, const Lane& at, int count, bool accumulate) const;
  // A folded mask (every pass folded) on the backend's stream, as issue_mask.
  void issue_folded_mask(const Step& s, const BlasHandle& blas, Complex* fields, int count,
                         const Real* then_stop, cudaStream_t stream) const;

  int samples_;
  std::vector<Step> steps_;
  // Lane 0's, per frame: N x m, m x m, m x N, and its share N x N.
  DeviceBuffer<Complex> rows_, focal_, back_, share_;
  std::vector<std::unique_ptr<SideLane>> side_lanes_;  // lanes 1, 2, ...: empty unless used
  std::unique_ptr<Event> forked_;                      // with side lanes: the fields are ready
  // Folded masks: the grid's folded positions, and each frame's folded field and the passes'
  // sum, 4 P^2 values each (as reals, two planes); the window side uses rows_ and focal_.
  DeviceBuffer<int> fold_positive_, fold_negative_;
  FoldedGrid grid_;
  DeviceBuffer<Real> folded_in_, folded_out_;
};

}  // namespace psfsim::cuda

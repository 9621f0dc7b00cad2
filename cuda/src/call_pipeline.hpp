#pragma once
// What both CUDA backends do with a call between Backend::submit and finish: the call's slot
// (CallQueue) and the slot's pinned output, the batch's phase tables staged where the pupil
// kernel reads them, the frames' map indices, the graph recorded per GraphKey, and the two
// streams. What a call enqueues, how it is launched and how it is timed stay the backend's,
// given through CallSteps.
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <utility>

#include "call_queue.hpp"
#include "device_complex.hpp"
#include "device_memory.hpp"
#include "graph_cache.hpp"
#include "phase_table_packing.hpp"
#include "psfsim/backend.hpp"
#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/psf_plan.hpp"
#include "psfsim/stage_times.hpp"
#include "pupil_kernel.hpp"
#include "pupil_map_buffers.hpp"
#include "slot_frames.hpp"
#include "stream_and_events.hpp"

namespace psfsim::cuda {

// Up to this many bytes read by all pupil blocks of a call together, the kernel reads the
// phase tables from pinned host memory rather than after a copy node (which costs about 8 us
// on the H200).
inline constexpr std::size_t host_table_read_limit = std::size_t{1} << 20;

// A backend's own part of each call.
class CallSteps {
 public:
  // Bytes the call's pupil kernels would read over the bus with tables of `layout` left in
  // pinned host memory: up to host_table_read_limit they are read there, else copied first.
  [[nodiscard]] virtual std::size_t table_bus_reads(const BatchTableLayout& layout) const = 0;
  // Launches the call of `key`, whose tables and map indices are staged, through
  // CallPipeline::graph or directly; returns the stream its last work was issued on.
  virtual cudaStream_t launch(const GraphKey& key) = 0;
  // launch() for a call whose host frames the caller wants in `destination`, pinned host memory
  // (Backend::host_frame_memory, submit_into): `into_destination` where the backend put them
  // there instead of into the slot's output. By default it does not, and the caller copies.
  struct Launched {
    cudaStream_t last = nullptr;
    bool into_destination = false;
  };
  virtual Launched launch_into(const GraphKey& key, void* /*destination*/) {
    return {launch(key), false};
  }
  // The stage times of the completed call that ran in `slot`.
  [[nodiscard]] virtual StageTimes times(int slot, int frames) const = 0;

 protected:
  ~CallSteps() = default;
};

template <typename Real>
class CallPipeline {
 public:
  using CachedGraph = typename GraphCache<Real>::CachedGraph;

  // The streams and the queue's events. The slots' output buffers and the maps come later
  // (allocate_outputs, set_maps), once the backend has checked that there is memory for
  // them. `inline_tables`: small batches carry their tables in the pupil kernel's launch
  // parameters (the cuFFT backend's kernel takes them so).
  CallPipeline(const PsfPlan& plan, bool inline_tables);

  // Each slot's output: `frame_values` reals, pinned (device memory with the plan's
  // frames_on_device), and `metric_values` pinned doubles (0: none).
  void allocate_outputs(std::size_t frame_values, std::size_t metric_values);
  void set_maps(PupilMapBuffers maps) { maps_ = std::move(maps); }

  // `destination`: memory for the call's frames (Backend::submit_into), else null: device
  // memory, copied there behind the call's work, when the plan keeps frames on the device;
  // else pinned host memory, where the backend's launch_into puts them.
  void submit(std::span<const AberrationPolynomial> frames, CallSteps& steps,
              void* destination = nullptr);
  // Backend::prepare_next: the next call's slot taken ahead, its tables staged and map
  // indices set, unless its tables go inline (small batches: nothing to gain) or every free
  // slot is lent. submit() then launches at once when given the same polynomials in the same
  // slot, and stages them itself otherwise.
  void prepare(std::span<const AberrationPolynomial> frames, const CallSteps& steps);
  [[nodiscard]] FrameBlock finish(const CallSteps& steps);
  // Backend::lend_block: the slot memory of the block finish() last returned, unless a call
  // was submitted since, the block is in a submit_into destination, or lending it would leave
  // fewer than two slots unlent (null then: the caller copies the block).
  [[nodiscard]] std::shared_ptr<const void> lend();
  // From the backend's destructor: nothing may still run on buffers about to be freed, and
  // the graphs go before the buffers and plans they use. Errors here are past caring about.
  void stop() noexcept;

  [[nodiscard]] cudaStream_t stream() const noexcept { return stream_.get(); }
  // Device-to-host copies, overlapping the compute stream's later work.
  [[nodiscard]] cudaStream_t copy_stream() const noexcept { return copy_stream_.get(); }

  // The graph of `key`, or else the one recorded from what `issue` enqueues on stream().
  CachedGraph& graph(const GraphKey& key, const std::function<void()>& issue) {
    return graphs_.find_or_record(key, inline_tables_, stream_.get(), issue);
  }
  // With TableSource::parameters: this call's tables into the graph's pupil node, launched
  // on `pupil` with `shape`.
  void update_inline_tables(CachedGraph& cached, DeviceComplex<Real>* pupil,
                            const PupilShape& shape) const {
    GraphCache<Real>::update_inline_tables(cached, inline_tables_, pupil, shape);
  }
  // The tables the pupil kernel is given inline, null unless the key says so.
  [[nodiscard]] const InlineTables* inline_tables(const GraphKey& key) const noexcept {
    return key.tables == TableSource::parameters ? &inline_tables_ : nullptr;
  }
  // The tables as the pupil kernel reads them for the call of `key`.
  [[nodiscard]] PhaseTables phase_tables(const GraphKey& key) const noexcept;
  // First in a call's pipeline: with TableSource::device_copy, the staged tables to the
  // device, on stream().
  void issue_table_copy(const GraphKey& key) const;

  // The slot's output frames: where a block's data points (pinned host addresses, or device
  // addresses with frames_on_device), for copies; and their device views, for kernels that
  // write them directly (over the bus when pinned).
  [[nodiscard]] Real* output_frames(int slot) const noexcept { return at(frames_, slot).data(); }
  [[nodiscard]] Real* frames_view(int slot) const noexcept { return at(frames_, slot).view(); }
  [[nodiscard]] double* metrics_view(int slot) const noexcept { return at(metrics_view_, slot); }
  // The flag the kernels that write a call's host frames set for a value that is not finite
  // (finite_flag.cuh), cleared at submit; null where frames stay on the device or none are
  // stored. Every kernel that writes host frames must be given it: finish() reports the
  // frames as checked (FrameBlock::finite) from it alone.
  [[nodiscard]] int* non_finite_view(int slot) const noexcept { return at(non_finite_view_, slot); }
  // `bytes` of device frames into the slot's output frames, `offset` values in on both sides.
  void issue_frame_copy(int slot, std::size_t offset, const Real* device_frames, std::size_t bytes,
                        cudaStream_t stream) const;

  // The maps as the pupil kernel of a call in `slot` reads them, from call frame `first` on.
  [[nodiscard]] PupilMaps maps(int slot, int first = 0) const noexcept {
    return maps_.maps(slot, first);
  }

 private:
  template <typename T>
  static auto& at(T& slots, int slot) noexcept {
    return slots[static_cast<std::size_t>(slot)];
  }
  // The host's part of a call in `slot`: its finite flag cleared, its tables staged, its
  // map indices set.
  GraphKey stage_call(std::span<const AberrationPolynomial> frames, const BatchTableLayout& layout,
                      int slot, const CallSteps& steps);
  GraphKey stage_phase_tables(std::span<const AberrationPolynomial> frames,
                              const BatchTableLayout& layout, int slot, const CallSteps& steps);
  [[nodiscard]] bool takes_inline_tables(const BatchTableLayout& layout) const noexcept {
    return allows_inline_tables_ && layout.doubles() <= InlineTables::capacity;
  }
  // The slot of the next call. Where every slot no pending call holds is lent (a caller keeps
  // two blocks while it has two calls in flight), the next in turn gets fresh memory, and the
  // graphs that wrote its old memory go.
  int take_slot();

  int device_;
  int max_batch_;
  std::size_t frame_bytes_;
  bool stores_frames_;
  bool has_metrics_;
  bool frames_on_device_;
  bool allows_inline_tables_;

  // Released in reverse order: the queue's events and the graphs (emptied by stop()) first,
  // the streams last.
  Stream stream_;
  Stream copy_stream_;
  PupilMapBuffers maps_;
  // The call prepare() staged: its polynomials (compared by address and count), slot and key.
  struct PreparedCall {
    const AberrationPolynomial* frames = nullptr;
    std::size_t count = 0;
    int slot = -1;
    GraphKey key;
  };
  std::optional<PreparedCall> prepared_;
  std::size_t frame_values_ = 0;  // per slot
  std::array<SlotFrames<Real>, call_slots> frames_;
  int lendable_slot_ = -1;  // of the block finish() last returned, until the next submit
  std::array<PinnedBuffer<double>, call_slots> host_metrics_;
  std::array<double*, call_slots> metrics_view_{};
  std::array<PinnedBuffer<int>, call_slots> non_finite_;
  std::array<int*, call_slots> non_finite_view_{};
  InlineTables inline_tables_{};
  std::array<PinnedBuffer<double>, call_slots> staged_tables_;
  std::array<double*, call_slots> staged_tables_view_{};
  DeviceBuffer<double> tables_;  // copied from a call's staged tables by its graph
  GraphCache<Real> graphs_;
  CallQueue calls_;
};

extern template class CallPipeline<float>;
extern template class CallPipeline<double>;

}  // namespace psfsim::cuda

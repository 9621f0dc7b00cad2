#include "call_pipeline.hpp"

#include <memory>
#include <string>
#include <utility>

#include "cuda_check.hpp"
#include "device_info.hpp"
#include "psfsim/errors.hpp"

namespace psfsim::cuda {
namespace {

// Both backends answer to this name (Backend::name) in the queue's messages.
constexpr const char* backend_name = "cuda";

}  // namespace

template <typename Real>
CallPipeline<Real>::CallPipeline(const PsfPlan& plan, bool inline_tables)
    : device_(plan.device),
      max_batch_(plan.max_batch),
      frame_bytes_(plan.frame_bytes()),
      stores_frames_(plan.metrics.store_frames),
      has_metrics_(!plan.metrics.empty()),
      frames_on_device_(plan.frames_on_device),
      allows_inline_tables_(inline_tables) {}

template <typename Real>
void CallPipeline<Real>::allocate_outputs(std::size_t frame_values, std::size_t metric_values) {
  frame_values_ = frame_values;
  for (int slot = 0; slot < call_slots && frame_values > 0; ++slot) {
    at(frames_, slot).allocate(frame_values, frames_on_device_);
    if (!frames_on_device_) {
      at(non_finite_, slot) = PinnedBuffer<int>(1);
      at(non_finite_view_, slot) = device_view(at(non_finite_, slot));
    }
  }
  for (int slot = 0; slot < call_slots && metric_values > 0; ++slot) {
    at(host_metrics_, slot) = PinnedBuffer<double>(metric_values);
    at(metrics_view_, slot) = device_view(at(host_metrics_, slot));
  }
}

template <typename Real>
void CallPipeline<Real>::submit(std::span<const AberrationPolynomial> frames, CallSteps& steps,
                                void* destination) {
  const auto start = CallQueue::Clock::now();
  const int count = static_cast<int>(frames.size());
  if (count < 1 || count > max_batch_)
    throw InputError("cuda backend: " + std::to_string(count) +
                     " frames given, the plan holds 1 to " + std::to_string(max_batch_));
  select_device(device_);

  const int slot = take_slot();
  lendable_slot_ = -1;
  const std::optional<PreparedCall> prepared = std::exchange(prepared_, std::nullopt);
  const GraphKey key = prepared && prepared->frames == frames.data() &&
                               prepared->count == frames.size() && prepared->slot == slot
                           ? prepared->key
                           : stage_call(frames, batch_table_layout(frames), slot, steps);
  if (!stores_frames_) destination = nullptr;
  cudaStream_t last = nullptr;
  if (frames_on_device_) {
    last = steps.launch(key);
    if (destination != nullptr)
      PSFSIM_CUDA_CHECK(cudaMemcpyAsync(destination, output_frames(slot), count * frame_bytes_,
                                        cudaMemcpyDeviceToDevice, last));
  } else if (destination != nullptr) {
    const CallSteps::Launched launched = steps.launch_into(key, destination);
    last = launched.last;
    if (!launched.into_destination) destination = nullptr;  // the caller copies
  } else {
    last = steps.launch(key);
  }
  calls_.push(slot, frames.size(), start, last, destination);
}

template <typename Real>
void CallPipeline<Real>::prepare(std::span<const AberrationPolynomial> frames,
                                 const CallSteps& steps) {
  prepared_.reset();
  if (frames.empty() || frames.size() > static_cast<std::size_t>(max_batch_)) return;
  select_device(device_);
  const int slot = calls_.upcoming_slot([&](int s) { return at(frames_, s).lent(); });
  if (slot < 0) return;
  const BatchTableLayout layout = batch_table_layout(frames);
  // Inline tables are the launch's parameters, one set for every slot; a degree past the
  // kernel's is refused by the submit itself.
  if (takes_inline_tables(layout) || layout.degree > max_phase_degree) return;
  prepared_ =
      PreparedCall{frames.data(), frames.size(), slot, stage_call(frames, layout, slot, steps)};
}

template <typename Real>
GraphKey CallPipeline<Real>::stage_call(std::span<const AberrationPolynomial> frames,
                                        const BatchTableLayout& layout, int slot,
                                        const CallSteps& steps) {
  // The slot's previous call has finished: its flag is read.
  if (int* flag = at(non_finite_, slot).data()) *flag = 0;
  const GraphKey key = stage_phase_tables(frames, layout, slot, steps);
  maps_.set_frames(frames, slot);
  return key;
}

template <typename Real>
int CallPipeline<Real>::take_slot() {
  const int slot = calls_.next_slot(backend_name, [&](int s) { return at(frames_, s).lent(); });
  if (slot >= 0) {
    at(frames_, slot).wait_for_release(stream_.get());
    return slot;
  }
  const int reclaimed = calls_.next_free_slot();
  PSFSIM_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));  // calls in flight use the graphs
  graphs_.clear();
  at(frames_, reclaimed).allocate(frame_values_, frames_on_device_);
  return reclaimed;
}

template <typename Real>
FrameBlock CallPipeline<Real>::finish(const CallSteps& steps) {
  select_device(device_);
  double added = 0.0;
  const CallQueue::Call call = calls_.pop(backend_name, added);
  FrameBlock block;
  block.data = !stores_frames_               ? nullptr
               : call.destination != nullptr ? call.destination
                                             : output_frames(call.slot);
  block.metrics = has_metrics_ ? at(host_metrics_, call.slot).data() : nullptr;
  block.frames = call.frames;
  const int* flag = at(non_finite_, call.slot).data();
  block.finite = flag != nullptr && *flag == 0;
  block.times = steps.times(call.slot, static_cast<int>(call.frames));
  block.times.total = added;
  lendable_slot_ = stores_frames_ && call.destination == nullptr ? call.slot : -1;
  return block;
}

template <typename Real>
std::shared_ptr<const void> CallPipeline<Real>::lend() {
  if (lendable_slot_ < 0) return nullptr;
  int lent = 0;
  for (int s = 0; s < call_slots; ++s) lent += at(frames_, s).lent() ? 1 : 0;
  // One slot stays unlent for the next call (two calls in flight make take_slot reclaim one).
  if (lent >= call_slots - 1) return nullptr;
  const int slot = std::exchange(lendable_slot_, -1);
  return at(frames_, slot).lend(device_);
}

template <typename Real>
void CallPipeline<Real>::stop() noexcept {
  if (cudaSetDevice(device_) == cudaSuccess) {
    cudaStreamSynchronize(stream_.get());
    cudaStreamSynchronize(copy_stream_.get());
  }
  cudaGetLastError();
  graphs_.clear();
}

template <typename Real>
PhaseTables CallPipeline<Real>::phase_tables(const GraphKey& key) const noexcept {
  const double* where = key.tables == TableSource::host_memory   ? at(staged_tables_view_, key.slot)
                        : key.tables == TableSource::device_copy ? tables_.data()
                                                                 : nullptr;
  return key.phase_tables(where);
}

template <typename Real>
void CallPipeline<Real>::issue_table_copy(const GraphKey& key) const {
  if (key.tables != TableSource::device_copy) return;
  PSFSIM_CUDA_CHECK(cudaMemcpyAsync(tables_.data(), at(staged_tables_, key.slot).data(),
                                    static_cast<std::size_t>(key.frames) *
                                        key.phase_tables(nullptr).doubles_per_frame() *
                                        sizeof(double),
                                    cudaMemcpyHostToDevice, stream_.get()));
}

template <typename Real>
void CallPipeline<Real>::issue_frame_copy(int slot, std::size_t offset, const Real* device_frames,
                                          std::size_t bytes, cudaStream_t stream) const {
  PSFSIM_CUDA_CHECK(cudaMemcpyAsync(
      output_frames(slot) + offset, device_frames + offset, bytes,
      frames_on_device_ ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost, stream));
}

// Lays the batch's tables out for the pupil kernel: in its launch parameters where the
// backend takes them so and they fit, else in pinned staging memory, read from there when
// that is little traffic over the bus, else copied to the device first.
template <typename Real>
GraphKey CallPipeline<Real>::stage_phase_tables(std::span<const AberrationPolynomial> frames,
                                                const BatchTableLayout& layout, int slot,
                                                const CallSteps& steps) {
  if (layout.degree > max_phase_degree)
    throw InputError("cuda backend: phase polynomial of degree " + std::to_string(layout.degree) +
                     " (at most " + std::to_string(max_phase_degree) + ")");
  GraphKey key{layout.frames, layout.degree, layout.with_rho, TableSource::parameters, slot};
  if (takes_inline_tables(layout)) {
    pack_phase_tables(frames, layout, inline_tables_.values);
    return key;
  }
  PinnedBuffer<double>& staged = at(staged_tables_, slot);
  if (layout.doubles() > staged.size()) {
    // Sized for a full batch of this layout so that later calls do not grow it again.
    const std::size_t capacity = max_batch_ * layout.doubles_per_frame();
    PSFSIM_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));  // calls in flight read them
    graphs_.clear();                                          // they read the buffers replaced here
    staged = PinnedBuffer<double>(capacity);
    at(staged_tables_view_, slot) = device_view(staged);
    if (tables_.size() < capacity) tables_ = DeviceBuffer<double>(capacity);
  }
  pack_phase_tables(frames, layout, staged.data());
  key.tables = steps.table_bus_reads(layout) <= host_table_read_limit ? TableSource::host_memory
                                                                      : TableSource::device_copy;
  return key;
}

template class CallPipeline<float>;
template class CallPipeline<double>;

}  // namespace psfsim::cuda

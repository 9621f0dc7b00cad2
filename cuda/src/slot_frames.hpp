#pragma once
// A call slot's output frames (CallPipeline): pinned host memory that the kernels write over the
// bus, or device memory with the plan's frames_on_device. A caller may be lent them after the
// slot's call finished (Backend::lend_block), keeping a copy from being made: the memory is then
// the caller's until it lets go, later calls take other slots, and it outlives the backend.
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <memory>

#include "device_memory.hpp"
#include "stream_and_events.hpp"

namespace psfsim::cuda {

template <typename Real>
class SlotFrames {
 public:
  // Fresh memory for `values` reals: the slot's earlier memory stays with its borrower, if any.
  void allocate(std::size_t values, bool on_device);

  [[nodiscard]] Real* data() const noexcept { return data_; }
  // The address kernels write: the data itself, or pinned memory's device view.
  [[nodiscard]] Real* view() const noexcept { return view_; }
  [[nodiscard]] bool lent() const noexcept {
    return memory_ != nullptr && memory_->lent.load(std::memory_order_acquire);
  }

  // The memory, for the caller to keep. When the last holder lets go, the legacy default stream
  // of `device` records an event: whatever a consumer queued there reading the frames (a CuPy
  // or PyTorch copy, say) comes before the slot's next call writes here (wait_for_release).
  [[nodiscard]] std::shared_ptr<const void> lend(int device);
  // Before a call writes the slot again: `stream` waits for the event of the last loan's end.
  void wait_for_release(cudaStream_t stream);

 private:
  struct Memory {
    PinnedBuffer<Real> host;
    DeviceBuffer<Real> device;
    Event released{cudaEventDisableTiming};
    std::atomic<bool> lent{false};
  };
  std::shared_ptr<Memory> memory_;
  Real* data_ = nullptr;
  Real* view_ = nullptr;
  bool waits_for_release_ = false;  // lent since the last wait_for_release
};

extern template class SlotFrames<float>;
extern template class SlotFrames<double>;

}  // namespace psfsim::cuda

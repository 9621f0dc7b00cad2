#pragma once
// The calls a CUDA backend has submitted and not yet finished (Backend::submit and finish).
// Each call owns one of call_slots sets of host buffers (pinned output, staged tables, map
// indices, timing events): a block must outlive two more calls, so call c + 3 is the first
// to take call c's slot again. Slots whose output is lent to a caller (SlotFrames) are passed
// over, which only a caller that takes each block before its next submit may see.
#include <cuda_runtime_api.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <string>

#include "cuda_check.hpp"
#include "psfsim/errors.hpp"
#include "stream_and_events.hpp"

namespace psfsim::cuda {

inline constexpr int call_slots = 3;

class CallQueue {
 public:
  using Clock = std::chrono::steady_clock;
  struct Call {
    int slot = 0;
    std::size_t frames = 0;
    Clock::time_point submitted;
    const void* destination = nullptr;  // where the call's frames were copied, if anywhere
  };

  // The slot of the call about to be submitted: the next in turn that no pending call holds
  // and `lent(slot)` does not claim, else -1 (every free slot lent). With none lent, slots go
  // round in turn.
  template <typename Lent>
  [[nodiscard]] int next_slot(const std::string& backend, const Lent& lent) const {
    if (pending_ == pending_calls_.size())
      throw RuntimeFailure(backend + " backend: a third call submitted before one finished");
    return upcoming_slot(lent);
  }
  // The slot next_slot() would give the next call, were it submitted now, whether or not as
  // many calls as the queue holds are pending (Backend::prepare_next); -1 as there.
  template <typename Lent>
  [[nodiscard]] int upcoming_slot(const Lent& lent) const {
    for (int step = 0; step < call_slots; ++step) {
      const int slot = (next_slot_ + step) % call_slots;
      if (!holds(slot) && !lent(slot)) return slot;
    }
    return -1;
  }
  // The next in turn that no pending call holds, lent or not.
  [[nodiscard]] int next_free_slot() const noexcept {
    int slot = next_slot_;
    while (holds(slot)) slot = (slot + 1) % call_slots;
    return slot;
  }

  // After the call's work, in `slot`, has been issued on `stream`.
  void push(int slot, std::size_t frames, Clock::time_point submitted, cudaStream_t stream,
            const void* destination) {
    PSFSIM_CUDA_CHECK(cudaEventRecord(done_[static_cast<std::size_t>(slot)].get(), stream));
    pending_calls_[(oldest_ + pending_) % pending_calls_.size()] = {slot, frames, submitted,
                                                                    destination};
    ++pending_;
    next_slot_ = (slot + 1) % call_slots;
  }

  // Waits for the oldest call and removes it. `added` is the time it added to the run: from
  // its submission, or from the previous call's finish if that came later, to now.
  Call pop(const std::string& backend, double& added) {
    if (pending_ == 0) throw RuntimeFailure(backend + " backend: finish() with no call submitted");
    const Call call = pending_calls_[oldest_];
    oldest_ = (oldest_ + 1) % pending_calls_.size();
    --pending_;
    PSFSIM_CUDA_CHECK(cudaEventSynchronize(done_[static_cast<std::size_t>(call.slot)].get()));
    const Clock::time_point now = Clock::now();
    added = std::chrono::duration<double>(now - std::max(call.submitted, last_finish_)).count();
    last_finish_ = now;
    return call;
  }

 private:
  [[nodiscard]] bool holds(int slot) const noexcept {
    for (std::size_t i = 0; i < pending_; ++i)
      if (pending_calls_[(oldest_ + i) % pending_calls_.size()].slot == slot) return true;
    return false;
  }

  std::array<Event, call_slots> done_{Event{cudaEventDisableTiming}, Event{cudaEventDisableTiming},
                                      Event{cudaEventDisableTiming}};
  std::array<Call, 2> pending_calls_{};
  std::size_t oldest_ = 0;
  std::size_t pending_ = 0;
  int next_slot_ = 0;
  Clock::time_point last_finish_{};
};

}  // namespace psfsim::cuda

#pragma once
// The calls a CUDA backend has submitted and not yet finished (Backend::submit and finish).
// Each call owns one of call_slots sets of host buffers (pinned output, staged tables, map
// indices, timing events): a block must outlive two more calls, so call c + 3 is the first
// to take call c's slot again.
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

  // The slot of the call about to be submitted.
  [[nodiscard]] int next_slot(const std::string& backend) const {
    if (pending_ == pending_calls_.size())
      throw RuntimeFailure(backend + " backend: a third call submitted before one finished");
    return next_slot_;
  }

  // After the call's work has been issued on `stream`.
  void push(std::size_t frames, Clock::time_point submitted, cudaStream_t stream,
            const void* destination) {
    PSFSIM_CUDA_CHECK(cudaEventRecord(done_[static_cast<std::size_t>(next_slot_)].get(), stream));
    pending_calls_[(oldest_ + pending_) % pending_calls_.size()] = {next_slot_, frames, submitted,
                                                                    destination};
    ++pending_;
    next_slot_ = (next_slot_ + 1) % call_slots;
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
  std::array<Event, call_slots> done_{Event{cudaEventDisableTiming}, Event{cudaEventDisableTiming},
                                      Event{cudaEventDisableTiming}};
  std::array<Call, 2> pending_calls_{};
  std::size_t oldest_ = 0;
  std::size_t pending_ = 0;
  int next_slot_ = 0;
  Clock::time_point last_finish_{};
};

}  // namespace psfsim::cuda

#pragma once
// The events that time a compute() call: stage boundaries recorded inside its graph, or one
// pair around the graph launch, as the execution policy's Timing says.
#include <cuda_runtime_api.h>

#include <array>

#include "execution_policy.hpp"
#include "psfsim/stage_times.hpp"
#include "stream_and_events.hpp"

namespace psfsim::cuda {

class StageClock {
 public:
  // `enabled` false (PsfPlan::untimed): nothing is recorded, and times() is empty.
  StageClock(Timing timing, bool enabled) : timing_(timing), enabled_(enabled) {}

  // Stage boundary in the pipeline being recorded on `stream`: 0 start, 1 after pupil, 2 after
  // fft, 3 after intensity, 4 after transfer. Only the boundaries the timing reports are
  // recorded; the others cost nothing.
  void mark(int stage, cudaStream_t stream) const;
  // Around the graph launch, for the timings that report the whole graph as one stage.
  void before_launch(cudaStream_t stream) const;
  void after_launch(cudaStream_t stream) const;
  // The stages of the last launch, once it has completed.
  [[nodiscard]] StageTimes times() const;

 private:
  [[nodiscard]] bool timed_around_launch() const noexcept {
    return enabled_ && (timing_ == Timing::whole || timing_ == Timing::pieced);
  }

  Timing timing_;
  bool enabled_;
  std::array<Event, 5> marks_;
};

}  // namespace psfsim::cuda

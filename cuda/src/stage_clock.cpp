#include "stage_clock.hpp"

#include "cuda_check.hpp"

namespace psfsim::cuda {

// Stage times come from events recorded inside the graph (external event nodes), so each
// call's figures are those of that very replay, not of a separate timing pass.
void StageClock::mark(int stage, cudaStream_t stream) const {
  const bool wanted =
      enabled_ && (timing_ == Timing::staged || (timing_ == Timing::fused_copy && stage <= 3));
  if (!wanted) return;  // Timing::whole is timed by events around the launch instead
  PSFSIM_CUDA_CHECK(cudaEventRecordWithFlags(marks_[stage].get(), stream, cudaEventRecordExternal));
}

void StageClock::before_launch(cudaStream_t stream) const {
  if (timed_around_launch()) PSFSIM_CUDA_CHECK(cudaEventRecord(marks_[0].get(), stream));
}

void StageClock::after_launch(cudaStream_t stream) const {
  if (timed_around_launch()) PSFSIM_CUDA_CHECK(cudaEventRecord(marks_[4].get(), stream));
}

StageTimes StageClock::times() const {
  StageTimes t;
  if (!enabled_) return t;
  switch (timing_) {
    case Timing::whole:
    case Timing::pieced:
      t.add("pupil+fft+intensity+transfer", elapsed_seconds(marks_[0], marks_[4]));
      break;
    case Timing::fused_copy:
      t.add("pupil", elapsed_seconds(marks_[0], marks_[1]));
      t.add("fft", elapsed_seconds(marks_[1], marks_[2]));
      t.add("intensity+transfer", elapsed_seconds(marks_[2], marks_[3]));
      break;
    case Timing::staged:
      t.add("pupil", elapsed_seconds(marks_[0], marks_[1]));
      t.add("fft", elapsed_seconds(marks_[1], marks_[2]));
      t.add("intensity", elapsed_seconds(marks_[2], marks_[3]));
      t.add("transfer", elapsed_seconds(marks_[3], marks_[4]));
      break;
  }
  return t;
}

}  // namespace psfsim::cuda

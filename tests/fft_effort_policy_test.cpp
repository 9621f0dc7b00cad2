// The CPU backend's planner effort (cpu/src/fft_effort_policy.cpp): which effort a run's work
// gets, against the table of cpu/include/psfsim/cpu/tuning.hpp.
#include "psfsim/cpu/fft_effort_policy.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "psfsim/cpu/tuning.hpp"

namespace psfsim::cpu {
namespace {

FftEffort automatic(int padded, std::size_t frames, bool wisdom = true) {
  return choose_fft_effort(FftEffort::automatic, FftWork{padded, frames, wisdom});
}

TEST(FftEffortPolicy, AnEffortAskedForIsKept) {
  for (const FftEffort e :
       {FftEffort::estimate, FftEffort::measure, FftEffort::patient, FftEffort::exhaustive})
    for (const bool wisdom : {false, true})
      for (const std::size_t frames : {std::size_t{1}, std::size_t{1} << 30}) {
        EXPECT_EQ(choose_fft_effort(e, FftWork{256, frames, wisdom}), e);
        EXPECT_EQ(choose_fft_effort(e, FftWork{16384, frames, wisdom}), e);
      }
}

TEST(FftEffortPolicy, OnePsfIsAnEstimateAtEverySize) {
  for (int m = 2; m <= 65536; m = m * 3 / 2 + 1) {
    EXPECT_EQ(automatic(m, 1), FftEffort::estimate) << "M = " << m;
    EXPECT_EQ(automatic(m, 10), FftEffort::estimate) << "M = " << m;
  }
}

TEST(FftEffortPolicy, WithoutWisdomEveryRunIsAnEstimate) {
  // A measured plan, timed afresh in every process, could differ between reruns.
  for (int m : {64, 1024, 16384})
    EXPECT_EQ(automatic(m, std::size_t{1} << 40, false), FftEffort::estimate);
}

TEST(FftEffortPolicy, MeasuredWhereThePlanningIsAtMostItsShareOfTheRun) {
  for (const auto& row : tuning::measure_planning_frames) {
    EXPECT_DOUBLE_EQ(measure_planning_frames(row.padded), row.frames);
    const double from = row.frames / tuning::measure_planning_share;
    EXPECT_DOUBLE_EQ(measure_pays_from(row.padded), from);
    const auto frames = static_cast<std::size_t>(std::ceil(from));
    EXPECT_EQ(automatic(row.padded, frames), FftEffort::measure) << "M = " << row.padded;
    EXPECT_EQ(automatic(row.padded, frames - 1), FftEffort::estimate) << "M = " << row.padded;
  }
  // A long batch of small frames, and a few large ones.
  EXPECT_EQ(automatic(256, 100000), FftEffort::measure);
  EXPECT_EQ(automatic(256, 1000), FftEffort::estimate);
  EXPECT_EQ(automatic(8192, 100), FftEffort::measure);
}

TEST(FftEffortPolicy, BetweenAndBeyondTheTableRows) {
  const auto& table = tuning::measure_planning_frames;
  for (std::size_t i = 1; i < table.size(); ++i) {
    const int m =
        static_cast<int>(std::lround(std::sqrt(1.0 * table[i - 1].padded * table[i].padded)));
    const double lo = std::min(table[i - 1].frames, table[i].frames);
    const double hi = std::max(table[i - 1].frames, table[i].frames);
    EXPECT_GE(measure_planning_frames(m), lo) << "M = " << m;
    EXPECT_LE(measure_planning_frames(m), hi) << "M = " << m;
  }
  EXPECT_DOUBLE_EQ(measure_planning_frames(2), table.front().frames);
  EXPECT_DOUBLE_EQ(measure_planning_frames(65536), table.back().frames);
}

}  // namespace
}  // namespace psfsim::cpu

// The CPU backend's thread policy (cpu/src/thread_policy.cpp): which counts it picks.
#include "psfsim/cpu/thread_policy.hpp"
#include "psfsim/cpu/tuning.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace psfsim::cpu {
namespace {

int frame_threads(int padded, int cores) {
  return choose_threads(padded, 1, 0, cores).frame_threads;
}

TEST(ThreadPolicy, OnePsfByDefaultIsThreadedFromASizeThatFallsWithTheCores) {
  // 16 cores: M < 256 alone, M >= 256 on all of them.
  EXPECT_EQ(frame_threads(64, 16), 1);
  EXPECT_EQ(frame_threads(128, 16), 1);
  EXPECT_EQ(frame_threads(255, 16), 1);
  EXPECT_EQ(frame_threads(256, 16), 16);
  EXPECT_EQ(frame_threads(4096, 16), 16);
  // 2 cores: the second thread pays only from M = 1024.
  EXPECT_EQ(frame_threads(128, 2), 1);
  EXPECT_EQ(frame_threads(256, 2), 1);
  EXPECT_EQ(frame_threads(512, 2), 1);
  EXPECT_EQ(frame_threads(1023, 2), 1);
  EXPECT_EQ(frame_threads(1024, 2), 2);
  EXPECT_EQ(frame_threads(4096, 2), 2);
  // The table's rows, and between them fewer points the more cores.
  for (const auto& row : tuning::frame_threading_from)
    EXPECT_EQ(frame_threading_points(row.cores), row.points);
  EXPECT_EQ(frame_threading_points(1), tuning::frame_threading_from.front().points);
  EXPECT_EQ(frame_threading_points(128), tuning::frame_threading_from.back().points);
  for (int cores = 2; cores < 16; ++cores) {
    EXPECT_GE(frame_threading_points(cores), frame_threading_points(cores + 1));
    EXPECT_LE(frame_threading_points(cores), tuning::frame_threading_from.front().points);
    EXPECT_GE(frame_threading_points(cores), tuning::frame_threading_from.back().points);
  }
  // Many cores: at least a 64 x 64 tile's worth of the transform per thread.
  EXPECT_EQ(frame_threads(256, 128), 16);
  EXPECT_EQ(frame_threads(512, 128), 64);
  EXPECT_EQ(frame_threads(1024, 128), 128);
  // Never more than the cores, never fewer than one, whatever M.
  for (int cores : {1, 2, 3, 16, 128})
    for (int m = 1; m <= 8192; m = m * 3 / 2 + 1) {
      const int t = frame_threads(m, cores);
      EXPECT_GE(t, 1);
      EXPECT_LE(t, cores);
      EXPECT_LE(t, std::max(1LL, static_cast<long long>(m) * m / tuning::frame_grain));
    }
}

TEST(ThreadPolicy, ThreadsAskedForAreUsedForOnePsf) {
  for (int m : {64, 512, 4096}) {
    const ThreadPlan p = choose_threads(m, 1, 3, 16);
    EXPECT_EQ(p.frame_threads, 3);
    EXPECT_EQ(p.workers, 1);
  }
  EXPECT_EQ(choose_threads(64, 1, 32, 16).frame_threads, 32);  // more than the cores: as asked
}

TEST(ThreadPolicy, BatchesRunFramesInParallelEachSingleThreaded) {
  const ThreadPlan all = choose_threads(4096, 1024, 0, 16);
  EXPECT_EQ(all.workers, 16);
  EXPECT_EQ(all.frame_threads, 1);
  EXPECT_EQ(choose_threads(256, 3, 0, 16).workers, 3);   // fewer frames than cores
  EXPECT_EQ(choose_threads(256, 64, 4, 16).workers, 4);  // threads asked for
  EXPECT_EQ(choose_threads(256, 64, 1, 16).workers, 1);
  EXPECT_EQ(choose_threads(256, 64, 1, 16).frame_threads, 1);
}

}  // namespace
}  // namespace psfsim::cpu

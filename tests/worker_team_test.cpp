// run_on_workers, under for_contiguous_runs: every task runs once, from many callers at once
// and from inside a task; a failed task's exception reaches its caller; a fork waits until no
// worker is inside a task; a forked child's passes run (the parent's workers are not there).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "psfsim/contiguous_parallel.hpp"
#include "psfsim/worker_team.hpp"

namespace psfsim {
namespace {

std::vector<int> counted(std::size_t tasks) {
  std::vector<int> hits(tasks, 0);
  run_on_workers(tasks, [&](std::size_t i) { hits[i] += 1; });
  return hits;
}

TEST(WorkerTeam, EveryTaskRunsOnceForCallersOnManyThreads) {
  std::vector<std::thread> callers;
  std::atomic<int> wrong{0};
  for (int c = 0; c < 6; ++c)
    callers.emplace_back([&, c] {
      for (int pass = 0; pass < 200; ++pass) {
        const std::vector<int> hits = counted(1 + static_cast<std::size_t>((c * 7 + pass) % 23));
        for (const int h : hits) wrong += h != 1;
      }
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(WorkerTeam, APassInsideATaskEnds) {
  std::vector<long> sums(16, 0);
  run_on_workers(sums.size(), [&](std::size_t i) {
    std::vector<long> values(1000);
    std::iota(values.begin(), values.end(), 1);
    std::vector<long> partial(8, 0);
    for_contiguous_runs(values.size(), [&](std::size_t lo, std::size_t hi) {
      partial[lo * partial.size() / values.size()] = std::accumulate(
          values.begin() + static_cast<long>(lo), values.begin() + static_cast<long>(hi), 0L);
    });
    sums[i] = std::accumulate(partial.begin(), partial.end(), 0L);
  });
  for (const long s : sums) EXPECT_EQ(s, 500500);
}

TEST(WorkerTeam, ATaskFailureReachesItsCallerAfterTheOthersRan) {
  std::vector<int> hits(32, 0);
  EXPECT_THROW(run_on_workers(hits.size(),
                              [&](std::size_t i) {
                                if (i == 3) throw std::runtime_error("task 3");
                                hits[i] = 1;
                              }),
               std::runtime_error);
  EXPECT_EQ(std::accumulate(hits.begin(), hits.end(), 0), 31);
}

// A worker forked inside its task may hold a lock (ASan's allocator takes none around fork)
// that the child then waits on for ever: the fork waits until the workers are out.
TEST(WorkerTeam, AForkWaitsUntilNoWorkerIsInsideATask) {
  constexpr std::size_t tasks = 6;
  enum : int { waiting, running, ended };
  std::array<std::atomic<int>, tasks> state{};
  std::array<std::atomic<bool>, tasks> on_worker{};
  std::atomic<bool> pass_ended{false};
  std::thread caller([&] {
    const std::thread::id caller_id = std::this_thread::get_id();
    run_on_workers(tasks, [&](std::size_t i) {
      on_worker[i] = std::this_thread::get_id() != caller_id;
      state[i] = running;
      std::this_thread::sleep_for(std::chrono::milliseconds(40));
      state[i] = ended;
    });
    pass_ended = true;
  });
  const auto a_worker_is_inside = [&] {
    for (std::size_t i = 0; i < tasks; ++i)
      if (state[i] == running && on_worker[i]) return true;
    return false;
  };
  while (!pass_ended && !a_worker_is_inside()) std::this_thread::yield();
  if (!a_worker_is_inside()) {
    caller.join();
    GTEST_SKIP() << "no worker took a task while the pass ran: this process has one core";
  }
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(a_worker_is_inside() ? 1 : 0);  // the parent's memory at the fork
  caller.join();
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "a worker was inside its task when the process forked";
}

TEST(WorkerTeam, AForkedChildRunsItsPasses) {
  (void)counted(8);  // the parent's team has started
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    alarm(20);  // a pass waiting for workers the child does not have ends it by SIGALRM
    bool right = true;
    for (int pass = 0; pass < 50; ++pass)
      for (const int h : counted(8)) right = right && h == 1;
    _exit(right ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child ended by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace psfsim

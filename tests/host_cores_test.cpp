// The cores psfsim sizes its threads by: the process's affinity mask
// (lib/model/src/host_cores.cpp) and an MPI rank's share (apps/mpi/rank_resources.cpp).
#include <gtest/gtest.h>
#include <sched.h>

#include <string>
#include <thread>

#include "psfsim/host_cores.hpp"
#include "mpi/rank_resources.hpp"

namespace psfsim {
namespace {

// On a thread of its own, whose mask (sched_setaffinity(0, ...)) is its own: the test
// process keeps its cores.
TEST(HostCores, UsableCoresFollowTheAffinityMask) {
  const int host = host_cores();
  EXPECT_EQ(host, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  int all = 0;
  int bound = 0;
  bool bound_ok = false;
  std::thread([&] {
    all = usable_cores();
    cpu_set_t mask;
    CPU_ZERO(&mask);
    sched_getaffinity(0, sizeof mask, &mask);
    int first = 0;
    while (!CPU_ISSET(first, &mask)) ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    bound_ok = sched_setaffinity(0, sizeof one, &one) == 0;
    bound = usable_cores();
  }).join();
  EXPECT_GE(all, 1);
  EXPECT_LE(all, host);
  ASSERT_TRUE(bound_ok);
  EXPECT_EQ(bound, 1);
}

TEST(RankResources, ThreadsShareTheHostAndStayWithinTheBinding) {
  using app::rank_threads;
  EXPECT_EQ(rank_threads(32, 32, 2), 16);  // unbound: half the host each
  EXPECT_EQ(rank_threads(32, 1, 2), 1);    // mpirun's default for 2 ranks: a core each
  EXPECT_EQ(rank_threads(32, 16, 3), 10);  // bound to a socket shared by ranks
  EXPECT_EQ(rank_threads(2, 1, 2), 1);
  EXPECT_EQ(rank_threads(2, 2, 4), 1);  // never 0
}

TEST(RankResources, NotesAGpuRankBoundToOneCoreOfALargerHost) {
  using app::gpu_binding_note;
  const std::string note = gpu_binding_note(32, 1);
  EXPECT_NE(note.find("bound to 1 of the host's 32 cores"), std::string::npos) << note;
  EXPECT_NE(note.find("--bind-to none"), std::string::npos) << note;
  EXPECT_EQ(gpu_binding_note(32, 4), "");
  EXPECT_EQ(gpu_binding_note(1, 1), "");
}

}  // namespace
}  // namespace psfsim

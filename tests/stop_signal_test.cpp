// Stop signals (docs/spec.md §8): SIGINT, SIGTERM and SIGHUP end a run or a sweep at once with exit
// 128 + signal, one line, and the partial file removed. A partial left by SIGKILL is removed
// by the next run in that folder once its process is gone, never while it lives.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "background_run.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

// The partial HDF5 file of process `pid` writing big.h5 (not the empty probe it makes first).
std::string partial_of(const std::string& dir, pid_t pid) {
  return dir + "/.big.h5.partial-" + host_name() + "-" + std::to_string(pid);
}

bool partial_exists(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".partial-") != std::string::npos) return true;
  return false;
}

// Waits until the run writes its partial file (it plans and expands frames first).
bool wait_for_partial(const std::string& dir, pid_t pid) {
  return wait_for_file(partial_of(dir, pid), pid);
}

// A run long enough to be caught mid-write: about 10 s on one core.
std::vector<std::string> long_run(const std::string& dir) {
  return {"run",
          "--backend",
          "cpu",
          "--threads",
          "1",
          "--samples",
          "64",
          "--crop",
          "32",
          "--vary",
          "Z4,-1,1,200000",
          "--fft-effort",
          "estimate",
          "--quiet",
          "-o",
          dir + "/big.h5"};
}

class StopSignal : public ::testing::TestWithParam<int> {};

TEST_P(StopSignal, RunStopsRemovesItsPartialAndExits128PlusSignal) {
  const int sig = GetParam();
  const std::string dir = fresh_dir("signal-" + std::to_string(sig));
  const std::string out_dir = fresh_dir("signal-out-" + std::to_string(sig));
  const Running run = start_psfsim(long_run(out_dir), dir);
  ASSERT_TRUE(wait_for_partial(out_dir, run.pid)) << read_text(run.stderr_path);
  ASSERT_EQ(::kill(run.pid, sig), 0);
  // Generous: a hang, not a speed, is what this bound catches.
  EXPECT_EQ(wait_exit(run.pid, std::chrono::seconds(10)), 128 + sig);
  EXPECT_TRUE(folder_entries(out_dir).empty());
  const std::string err = read_text(run.stderr_path);
  EXPECT_EQ(err.rfind("psfsim: error: stopped by SIG", 0), 0u) << err;
  EXPECT_NE(err.find("partial output file was removed"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}

INSTANTIATE_TEST_SUITE_P(Signals, StopSignal, ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const auto& info) {
                           return std::string(info.param == SIGINT    ? "SIGINT"
                                              : info.param == SIGTERM ? "SIGTERM"
                                                                      : "SIGHUP");
                         });

TEST(StopSignalSweep, SweepStopsWithoutAFile) {
  const std::string dir = fresh_dir("signal-sweep");
  const Running sweep =
      start_psfsim({"sweep", "--backends", "cpu", "--sizes", "64,64,64,64,64,64,64,64", "--repeat",
                    "100000", "--quiet", "-o", dir + "/s.h5"},
                   dir);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  ASSERT_EQ(::kill(sweep.pid, SIGTERM), 0);
  EXPECT_EQ(wait_exit(sweep.pid, std::chrono::seconds(10)), 128 + SIGTERM);
  EXPECT_FALSE(fs::exists(dir + "/s.h5"));
}

TEST(StalePartial, LeftBySigkillIsRemovedByTheNextRunButNeverALiveOne) {
  const std::string dir = fresh_dir("stale");
  const std::string logs = fresh_dir("stale-logs");
  const Running run = start_psfsim(long_run(dir), logs);
  ASSERT_TRUE(wait_for_partial(dir, run.pid)) << read_text(run.stderr_path);
  ::kill(run.pid, SIGKILL);
  EXPECT_EQ(wait_exit(run.pid, std::chrono::seconds(10)), -1);
  ASSERT_TRUE(partial_exists(dir)) << "SIGKILL cannot be caught: its partial stays";

  // Partials that must stay: one of a live process (this test's) and one of another host.
  const std::string live =
      dir + "/.mine.h5.partial-" + host_name() + "-" + std::to_string(::getpid());
  const std::string elsewhere = dir + "/.theirs.h5.partial-other-host-1";
  std::ofstream(live) << "live";
  std::ofstream(elsewhere) << "other host";

  const auto next = run_psfsim("run --backend cpu --samples 16 --quiet -o " + dir + "/next.h5");
  ASSERT_EQ(next.exit_code, 0) << next.stderr_text;
  const std::vector<std::string> expected{
      ".mine.h5.partial-" + host_name() + "-" + std::to_string(::getpid()),
      ".theirs.h5.partial-other-host-1", "next.h5"};
  EXPECT_EQ(folder_entries(dir), expected);
}

}  // namespace
}  // namespace psfsim::test

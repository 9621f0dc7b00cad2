// --backend auto's choice by estimated wall time (BackendRegistry::choose): the cost models of
// the two backends, start-up included, held to the whole-process times bench/auto-grid.sh
// measured on the H200 host (16 cores; bench/results/2026-12-02-field-and-auto.md), and the
// rule that a backend which cannot win is never asked whether it is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "psfsim/backend_registry.hpp"
#include "psfsim/cpu/propagation_costs.hpp"
#include "psfsim/cuda/propagation_costs.hpp"
#include "psfsim/cuda/tuning.hpp"

namespace psfsim::test {
namespace {

// The two entries as the backends register them, without their libraries: `gpu_asked`
// counts the times auto asks whether the GPU is usable, which costs its driver's start.
BackendRegistry modelled(CpuVectorUnits units, int cores, int* gpu_asked) {
  BackendRegistry r;
  BackendEntry gpu;
  gpu.name = "cuda";
  gpu.site = ComputeSite::device;
  gpu.start_up_seconds = cuda::tuning::start_up_seconds;
  gpu.run_seconds = [](const RunWork& w) { return cuda::run_seconds(w); };
  gpu.unusable_reason = [gpu_asked] {
    ++*gpu_asked;
    return std::string();
  };
  r.add(gpu);
  BackendEntry cpu;
  cpu.name = "cpu";
  cpu.run_seconds = [units, cores](const RunWork& w) { return cpu::run_seconds(w, units, cores); };
  cpu.unusable_reason = [] { return std::string(); };
  r.add(cpu);
  return r;
}

// bench/auto-grid.sh's run: random Zernikes, K = 64 frames stored, float32, M = 2N.
RunWork grid_run(int n, double frames) {
  RunWork w;
  w.frame = {n, 2 * n, 64};
  w.propagations = frames;
  w.stored_frames = frames;
  w.frame_bytes = 64.0 * 64.0 * 4.0;
  return w;
}

struct Cell {
  int n;
  double frames;
  double cpu_s, cuda_s;  // medians of three processes
};

// Measured 2026-12-02 on the H200 host by `bench/gpu-field.sh build-gpu` (its auto-grid part).
constexpr Cell h200[] = {
    {32, 1, 0.0988, 0.4952},       {32, 16, 0.1007, 0.4950},     {32, 256, 0.0992, 0.4896},
    {32, 4096, 0.1944, 0.5943},    {32, 65536, 1.6527, 2.1364},  {64, 1, 0.0952, 0.4938},
    {64, 16, 0.1006, 0.5346},      {64, 256, 0.1116, 0.6322},    {64, 4096, 0.2413, 0.6531},
    {64, 65536, 1.7710, 2.1554},   {128, 1, 0.1167, 0.5391},     {128, 16, 0.0945, 0.5262},
    {128, 256, 0.1211, 0.5007},    {128, 4096, 0.2423, 0.6585},  {128, 65536, 2.0695, 1.9834},
    {256, 1, 0.1160, 0.5254},      {256, 16, 0.1339, 0.4675},    {256, 256, 0.1236, 0.4969},
    {256, 4096, 0.4221, 0.6609},   {256, 65536, 4.3430, 1.7851}, {512, 1, 0.1730, 0.4627},
    {512, 16, 0.1537, 0.4626},     {512, 256, 0.2390, 0.5006},   {512, 4096, 0.9305, 0.6322},
    {512, 65536, 12.2611, 2.0713},
};

// Where the two measured within 20 % of each other either choice is right; elsewhere auto
// must take the one measured faster. The host's vector units are not recorded with the
// grid, so the rule must hold for either.
TEST(BackendChoice, AutoTakesTheBackendTheH200MeasuredFasterWholeProcess) {
  for (const CpuVectorUnits units : {CpuVectorUnits{true, false}, CpuVectorUnits{true, true}}) {
    int asked = 0;
    const BackendRegistry r = modelled(units, 16, &asked);
    for (const Cell& c : h200) {
      const BackendChoice choice = r.choose("auto", grid_run(c.n, c.frames));
      const double taken = choice.entry->name == "cpu" ? c.cpu_s : c.cuda_s;
      EXPECT_LE(taken, 1.2 * std::min(c.cpu_s, c.cuda_s))
          << "N=" << c.n << " B=" << c.frames << " avx512=" << units.avx512 << ": "
          << choice.reason;
    }
  }
}

// The two cases: one PSF never waits for the GPU, not even to ask whether it is
// usable; a batch of 1e5 frames at N = 128 still takes it.
TEST(BackendChoice, OnePsfNeverAsksTheGpuAndALargeBatchTakesIt) {
  int asked = 0;
  const BackendRegistry r = modelled({true, true}, 16, &asked);
  RunWork one = grid_run(128, 1);
  one.frame.frame = 256;  // psfsim run --samples 128: the whole M = 256 plane
  const BackendChoice small = r.choose("auto", one);
  EXPECT_EQ(small.entry->name, "cpu");
  EXPECT_EQ(asked, 0);
  EXPECT_NE(small.reason.find("cuda"), std::string::npos) << small.reason;
  EXPECT_NE(small.reason.find("start-up"), std::string::npos) << small.reason;
  RunWork many = one;
  many.propagations = many.stored_frames = 1e5;
  EXPECT_EQ(r.choose("auto", many).entry->name, "cuda");
  EXPECT_EQ(asked, 1);
}

TEST(BackendChoice, AnUnusableGpuFallsBackAndANamedBackendHasNoReason) {
  BackendRegistry r;
  BackendEntry gpu;
  gpu.name = "cuda";
  gpu.start_up_seconds = 0.4;
  gpu.run_seconds = [](const RunWork&) { return 0.0; };
  gpu.unusable_reason = [] { return std::string("no CUDA device"); };
  r.add(gpu);
  BackendEntry cpu;
  cpu.name = "cpu";
  cpu.run_seconds = [](const RunWork&) { return 100.0; };
  cpu.unusable_reason = [] { return std::string(); };
  r.add(cpu);
  const BackendChoice choice = r.choose("auto", {});
  EXPECT_EQ(choice.entry->name, "cpu");
  EXPECT_NE(choice.reason.find("not usable"), std::string::npos) << choice.reason;
  const BackendChoice named = r.choose("cpu", {});
  EXPECT_EQ(named.entry->name, "cpu");
  EXPECT_TRUE(named.reason.empty());
}

// The CPU's time falls with its cores for a batch, not for one frame; the GPU's grows with
// the frames it sends over the bus.
TEST(BackendChoice, CostModelsScaleAsTheirHardware) {
  const CpuVectorUnits units{true, false};
  EXPECT_NEAR(cpu::run_seconds(grid_run(128, 1024), units, 16) * 16,
              cpu::run_seconds(grid_run(128, 1024), units, 1), 1e-12);
  EXPECT_DOUBLE_EQ(cpu::run_seconds(grid_run(128, 1), units, 16),
                   cpu::run_seconds(grid_run(128, 1), units, 1));
  RunWork metrics_only = grid_run(128, 4096);
  metrics_only.stored_frames = 0;
  EXPECT_LT(cuda::run_seconds(metrics_only), cuda::run_seconds(grid_run(128, 4096)));
}

}  // namespace
}  // namespace psfsim::test

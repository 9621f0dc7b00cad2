// What the run and the command line decide from a backend's registry entry alone: the
// propagation --propagation auto takes (each backend's cost model, held to the choices the
// cost models made before they moved into their backends), the calls' size by where the
// backend computes, the devices a process sees and the process's set-up.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "psfsim/builtin_backends.hpp"
#include "psfsim/cpu/propagation_costs.hpp"
#include "psfsim/cuda/propagation_costs.hpp"
#include "psfsim/host_cores.hpp"
#include "psfsim/psf_run.hpp"

namespace psfsim::test {
namespace {

constexpr Propagation fft = Propagation::fft;
constexpr Propagation mft = Propagation::mft;

BackendEntry costed(std::function<PropagationCosts(const PropagationWork&)> costs) {
  BackendEntry e;
  e.name = "costed";
  e.propagation_costs = std::move(costs);
  return e;
}

Propagation on_cuda(int n, int m, int k, int frames = 0) {
  return faster_propagation(costed(cuda::propagation_costs), {n, m, k, frames});
}

Propagation on_cpu(int n, int m, int k, CpuVectorUnits units) {
  return faster_propagation(
      costed([units](const PropagationWork& w) { return cpu::propagation_costs(w, units); }),
      {n, m, k});
}

const CpuVectorUnits avx2{true, false};
const CpuVectorUnits avx512{true, true};

// --propagation auto's GPU rule against what bench/propagation-grid.sh measured on the H200
// (bench/results/2026-12-01-queued-calls.md): the MFT was the faster at every N of 32-256 and K of
// 16-128 (M = 2N), by 8% at the closest; a crop of the whole plane is the FFT's own output.
TEST(PropagationChoice, CudaTakesTheMftWhereTheH200MeasuredItFaster) {
  for (const int n : {32, 64, 128, 256})
    for (const int k : {16, 32, 64, 128})
      if (k <= 2 * n) {  // past M only the MFT applies, which auto takes before asking
        EXPECT_EQ(on_cuda(n, 2 * n, k), mft) << "N=" << n << " K=" << k;
      }
  for (const int n : {128, 256, 512}) EXPECT_EQ(on_cuda(n, 2 * n, 2 * n), fft) << "N=" << n;
}

// The same rule for small calls against what the H200 measured one call at a time
// (bench/propagation-grid.sh ... 1,4,16,64,256 60, bench/results/2026-12-03-auto-small-calls.md):
// the points where one path was more than 10% the faster, M = 2N. Calls of 1 and 4 frames
// were the FFT's at every N and K; by 64 frames the MFT's from N = 64 on.
TEST(PropagationChoice, CudaTakesTheFftForCallsTooSmallForTheProducts) {
  struct Point {
    int n, frames, k;
    Propagation faster;
  };
  std::vector<Point> points;
  for (const int n : {32, 64, 128, 256, 512})
    for (const int k : {16, 32, 64, 128})
      if (k <= 2 * n)
        for (const int frames : {1, 4}) points.push_back({n, frames, k, fft});
  for (const Point& p : std::vector<Point>{
           {32, 16, 16, fft},   {32, 16, 64, fft},  {32, 64, 16, fft},   {32, 64, 32, fft},
           {32, 256, 32, mft},  {32, 256, 64, mft}, {64, 16, 16, fft},   {64, 16, 32, fft},
           {64, 16, 64, fft},   {64, 16, 128, mft}, {64, 64, 128, mft},  {64, 256, 32, mft},
           {128, 16, 128, mft}, {128, 64, 16, mft}, {128, 64, 128, mft}, {256, 16, 16, mft},
           {256, 16, 128, mft}, {256, 64, 16, mft}, {512, 16, 16, mft},  {512, 16, 128, mft},
           {512, 64, 64, mft}})
    points.push_back(p);
  for (const Point& p : points)
    EXPECT_EQ(on_cuda(p.n, 2 * p.n, p.k, p.frames), p.faster)
        << "N=" << p.n << " K=" << p.k << ", " << p.frames << " frames a call";
  // A batch's calls (frames 0: too large to matter) keep the per-frame rule above.
  EXPECT_EQ(on_cuda(64, 128, 32, 4096), mft);
}

// The CPU rule against the two machines it was calibrated on
// (bench/results/2026-11-30-mft-and-auto.md), B = 64, float, M = 2N: the 2-core EPYC (AVX2) and the
// 2-core Emerald Rapids Xeon (AVX-512). Where the two measured within 5% of each other the point is
// left out.
TEST(PropagationChoice, CpuTakesThePathEachVectorUnitMeasuredFaster) {
  struct Point {
    int n, k;
    Propagation faster;
  };
  for (const Point& p : std::vector<Point>{{32, 16, fft},
                                           {32, 32, fft},
                                           {32, 64, fft},
                                           {64, 16, fft},
                                           {64, 32, fft},
                                           {64, 64, fft},
                                           {64, 128, fft},
                                           {128, 16, mft},
                                           {128, 64, fft},
                                           {128, 128, fft},
                                           {256, 16, mft},
                                           {256, 64, fft},
                                           {256, 128, fft}})
    EXPECT_EQ(on_cpu(p.n, 2 * p.n, p.k, avx2), p.faster) << "AVX2, N=" << p.n << " K=" << p.k;
  for (const Point& p : std::vector<Point>{{32, 16, fft},
                                           {32, 32, fft},
                                           {32, 64, fft},
                                           {64, 16, mft},
                                           {64, 64, fft},
                                           {64, 128, fft},
                                           {128, 16, mft},
                                           {128, 32, mft},
                                           {128, 64, fft},
                                           {128, 128, fft},
                                           {256, 16, mft},
                                           {256, 32, mft},
                                           {256, 64, mft},
                                           {256, 128, fft}})
    EXPECT_EQ(on_cpu(p.n, 2 * p.n, p.k, avx512), p.faster) << "AVX-512, N=" << p.n << " K=" << p.k;
}

// Pairs of neighbouring crops on each side of a cost model's boundary, as the models chose
// before they moved from lib/ into their backends: the same arithmetic, the same choice,
// to the last crop. Odd M, planes hardly larger than the pupil, large N.
TEST(PropagationChoice, EachCostModelKeepsItsBoundaries) {
  struct Boundary {
    int n, m, last_mft;  // the MFT up to K = last_mft, the FFT from the next K on
  };
  for (const Boundary& b : std::vector<Boundary>{{61, 61, 59}, {63, 64, 61}, {64, 64, 61}}) {
    EXPECT_EQ(on_cuda(b.n, b.m, b.last_mft), mft) << "N=" << b.n << " M=" << b.m;
    EXPECT_EQ(on_cuda(b.n, b.m, b.last_mft + 1), fft) << "N=" << b.n << " M=" << b.m;
  }
  for (const Boundary& b :
       std::vector<Boundary>{{48, 192, 24}, {472, 472, 16}, {56, 224, 36}, {737, 738, 17}}) {
    EXPECT_EQ(on_cpu(b.n, b.m, b.last_mft, avx2), mft) << "N=" << b.n << " M=" << b.m;
    EXPECT_EQ(on_cpu(b.n, b.m, b.last_mft + 1, avx2), fft) << "N=" << b.n << " M=" << b.m;
  }
  for (const Boundary& b :
       std::vector<Boundary>{{41, 123, 52}, {64, 128, 38}, {1151, 1152, 41}, {2807, 2807, 46}}) {
    EXPECT_EQ(on_cpu(b.n, b.m, b.last_mft, avx512), mft) << "N=" << b.n << " M=" << b.m;
    EXPECT_EQ(on_cpu(b.n, b.m, b.last_mft + 1, avx512), fft) << "N=" << b.n << " M=" << b.m;
  }
  // A CPU without AVX2 weighs the products as one with it (OpenBLAS's Haswell rate or less).
  EXPECT_EQ(on_cpu(48, 192, 24, {}), mft);
  EXPECT_EQ(on_cpu(48, 192, 25, {}), fft);
}

TEST(PropagationChoice, NoCostModelOrATieKeepsTheFft) {
  BackendEntry none;
  EXPECT_EQ(faster_propagation(none, {64, 128, 64}), fft);
  EXPECT_EQ(faster_propagation(costed([](const PropagationWork&) {
                                 return PropagationCosts{2.0, 2.0};
                               }),
                               {64, 128, 64}),
            fft);
  EXPECT_EQ(faster_propagation(costed([](const PropagationWork&) {
                                 return PropagationCosts{2.0, 1.0};
                               }),
                               {64, 128, 64}),
            mft);
}

// The built-in entries say what the rest needs to know about them.
TEST(BackendCapabilities, BuiltinEntriesSayWhereTheyComputeAndWhatThingsCost) {
  const BackendEntry* cpu = builtin_backends().find("cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->site, ComputeSite::host);
  ASSERT_TRUE(cpu->propagation_costs);
  EXPECT_TRUE(cpu->set_up_process);  // OpenBLAS's environment
  EXPECT_EQ(cpu->start_up_seconds, 0.0);
  for (const PropagationWork w : {PropagationWork{128, 256, 16}, PropagationWork{64, 128, 64}}) {
    const PropagationCosts expected = cpu::propagation_costs(w, this_cpu_vector_units());
    EXPECT_EQ(cpu->propagation_costs(w).fft, expected.fft);
    EXPECT_EQ(cpu->propagation_costs(w).mft, expected.mft);
  }

  const BackendEntry* cuda = builtin_backends().find("cuda");
  ASSERT_NE(cuda, nullptr);  // compiled or not, the build knows the name
  EXPECT_EQ(cuda->site, ComputeSite::device);
  if (cuda->compiled) {
    ASSERT_TRUE(cuda->propagation_costs);
    EXPECT_EQ(cuda->propagation_costs({64, 128, 128}).mft,
              cuda::propagation_costs({64, 128, 128}).mft);
    EXPECT_GT(cuda->start_up_seconds, 0.0);
    EXPECT_TRUE(cuda->prepare);
    EXPECT_TRUE(cuda->device_count);
  }
}

TEST(BackendCapabilities, DevicesAreCountedByACompiledDeviceEntryOnly) {
  BackendEntry missing;
  missing.name = "missing";
  missing.site = ComputeSite::device;
  missing.compiled = false;
  missing.device_count = [] { return 5; };
  BackendEntry host;
  host.name = "host";
  host.device_count = [] { return 7; };
  BackendRegistry r;
  r.add(missing);
  r.add(host);
  EXPECT_EQ(r.device_count(), 0);
  BackendEntry device;
  device.name = "device";
  device.site = ComputeSite::device;
  device.device_count = [] { return 3; };
  r.add(device);
  EXPECT_EQ(r.device_count(), 3);
}

TEST(BackendCapabilities, ProcessSetUpRunsForCompiledEntriesOnce) {
  int cpu_like = 0, missing = 0;
  BackendEntry a;
  a.name = "a";
  a.set_up_process = [&] { ++cpu_like; };
  BackendEntry b;
  b.name = "b";
  b.compiled = false;
  b.set_up_process = [&] { ++missing; };
  BackendEntry c;  // none to set up
  c.name = "c";
  BackendRegistry r;
  r.add(a);
  r.add(b);
  r.add(c);
  r.set_up_process();
  EXPECT_EQ(cpu_like, 1);
  EXPECT_EQ(missing, 0);
}

// The CPU backend under another name, with the capabilities a test gives it: the run must
// follow them, whatever the name.
BackendRegistry stand_in(ComputeSite site,
                         std::function<PropagationCosts(const PropagationWork&)> costs) {
  BackendEntry e = *builtin_backends().find("cpu");
  e.name = "stand-in";
  e.site = site;
  e.propagation_costs = std::move(costs);
  BackendRegistry r;
  r.add(e);
  return r;
}

RunSpec small_spec() {
  RunSpec s;
  s.backend = "stand-in";
  s.samples = 32;
  s.pad_factor = 2.0;
  s.wisdom = "none";
  s.fft_effort = FftEffort::estimate;
  return s;
}

TEST(BackendCapabilities, AutoPropagationFollowsTheSelectedEntrysCostModel) {
  const auto says = [](double fft_cost, double mft_cost) {
    return [=](const PropagationWork& w) {
      EXPECT_EQ(w.samples, 32);
      EXPECT_EQ(w.padded, 64);
      EXPECT_EQ(w.frame, 48);
      return PropagationCosts{fft_cost, mft_cost};
    };
  };
  RunSpec spec = small_spec();
  spec.crop = 48;
  {
    const PsfRun run(spec, stand_in(ComputeSite::host, says(2.0, 1.0)));
    EXPECT_EQ(run.geometry().propagation, mft);
  }
  {
    const PsfRun run(spec, stand_in(ComputeSite::device, says(1.0, 2.0)));
    EXPECT_EQ(run.geometry().propagation, fft);
  }
  {
    const PsfRun run(spec, stand_in(ComputeSite::host, nullptr));
    EXPECT_EQ(run.geometry().propagation, fft);
  }
  {  // the MTF needs the FFT's whole plane, whatever the model says
    RunSpec mtf = spec;
    mtf.metrics.metrics = {Metric::mtf};
    const PsfRun run(mtf, stand_in(ComputeSite::host, says(2.0, 1.0)));
    EXPECT_EQ(run.geometry().propagation, fft);
  }
  {  // asked for by name, the FFT is not weighed
    RunSpec asked = spec;
    asked.optics.propagation = Propagation::fft;
    const PsfRun run(asked, stand_in(ComputeSite::host, says(2.0, 1.0)));
    EXPECT_EQ(run.geometry().propagation, fft);
  }
}

// A device keeping metrics alone sends no frame over the bus, so its calls are larger; a
// host backend's are not, and neither are a device's that store frames.
TEST(BackendCapabilities, CallsAreSizedByWhereTheBackendComputes) {
  RunSpec spec = small_spec();
  spec.frames = std::vector<Aberration>(1500);
  spec.metrics.metrics = {Metric::strehl};
  spec.metrics.store = Store::metrics;
  const auto max_batch = [](const RunSpec& s, ComputeSite site) {
    PsfRun run(s, stand_in(site, nullptr));
    return run.plan().max_batch;
  };
  const int host = max_batch(spec, ComputeSite::host);
  const int device = max_batch(spec, ComputeSite::device);
  EXPECT_LE(host, 1024);  // 16 MiB of 64 x 64 floats
  EXPECT_GT(device, host);
  spec.metrics.store = Store::both;
  EXPECT_EQ(max_batch(spec, ComputeSite::device), max_batch(spec, ComputeSite::host));
}

TEST(BackendCapabilities, TheRunReportsTheSelectedEntrysSite) {
  const RunSpec spec = small_spec();
  EXPECT_EQ(PsfRun(spec, stand_in(ComputeSite::device, nullptr)).backend_site(),
            ComputeSite::device);
  EXPECT_EQ(PsfRun(spec, stand_in(ComputeSite::host, nullptr)).backend_site(), ComputeSite::host);
}

}  // namespace
}  // namespace psfsim::test

// What only the cuFFT backend has: agreement with the FFTW backend over the shapes that pick
// its execution paths (graphs, direct host writes, copies in pieces), its stage timings and
// its device refusals. The contract every backend shares is tests/backend_contract_test.cpp.
// Every test skips visibly where no CUDA device is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "../test_support.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/aberration_polynomial.hpp"

namespace psfsim {
namespace {

Aberration terms(std::vector<SeidelTerm> seidel, std::vector<ZernikeTerm> zernike = {}) {
  Aberration t;
  t.seidel = std::move(seidel);
  t.zernike = std::move(zernike);
  return t;
}

// One wave of rho^2 cos(phi) (a rho table), spherical, coma and a higher Zernike.
Aberration mixed_terms() { return terms({{2, 1, 1.0}, {4, 0, 0.25}}, {{7, 0.1}, {11, 0.05}}); }

// Frames that differ in terms and in degree, so the batch is padded to a common degree.
std::vector<Aberration> varied_frames() {
  return {terms({{2, 0, 0.5}}),                // defocus, degree 2
          terms({{2, 1, 1.0}}),                // rho table only
          terms({{3, 1, 0.3}}),                // rho^2 x: plain, degree 3
          terms({}, {{22, 0.08}, {4, -0.2}}),  // degree 6
          mixed_terms(),
          terms({})};  // aberration free
}

// Nine frames, one of degree 24: the tables no longer fit the kernel's parameters or a
// cheap read over the bus, so the graph copies them to the device first.
std::vector<Aberration> nine_frames() {
  std::vector<Aberration> f = varied_frames();
  f.push_back(terms({{24, 0, 0.01}, {2, 0, -0.3}}));
  f.push_back(terms({{2, 1, -0.5}}, {{8, 0.07}}));
  f.push_back(terms({{4, 0, 0.6}}));
  return f;
}

std::unique_ptr<Backend> make_backend(const std::string& name, const PsfPlan& plan) {
  return builtin_backends().find(name)->create(plan);
}

void expect_all_finite(const std::vector<double>& v) {
  const auto bad = std::find_if(v.begin(), v.end(), [](double x) { return !std::isfinite(x); });
  EXPECT_EQ(bad, v.end()) << "non-finite value at index " << (bad - v.begin());
}

// ---------------------------------------------------------------------------------------
// Against the CPU backend.

struct CpuComparison {
  std::string label;
  test::Case shape;
  std::vector<Aberration> frames;
  Precision precision;
};

// Readable parameters in gtest's and CTest's listings.
void PrintTo(const CpuComparison& c, std::ostream* os) {
  *os << c.label << " " << to_string(c.precision);
}

class CudaMatchesCpu : public ::testing::TestWithParam<CpuComparison> {};

TEST_P(CudaMatchesCpu, RelativeL2WithinTolerance) {
  SKIP_WITHOUT_CUDA();
  const CpuComparison& p = GetParam();
  const auto gpu = test::compute_frames("cuda", p.shape, p.frames, p.precision);
  const auto cpu = test::compute_frames("cpu", p.shape, p.frames, p.precision);
  ASSERT_EQ(gpu.size(), p.frames.size());
  ASSERT_EQ(cpu.size(), p.frames.size());
  for (std::size_t f = 0; f < gpu.size(); ++f) {
    expect_all_finite(gpu[f]);
    EXPECT_LE(test::relative_l2(gpu[f], cpu[f]), test::backend_tolerance(p.precision))
        << "frame " << f;
  }
}

test::Case shape(int n, int m, Grid grid, Normalization norm, int crop = 0, double eps = 0.0) {
  return test::make_case(n, m, grid, norm, crop, eps);
}

std::vector<CpuComparison> cpu_comparisons() {
  using G = Grid;
  using Nm = Normalization;
  const std::vector<Aberration> one{mixed_terms()};
  struct Row {
    std::string label;
    test::Case c;
    std::vector<Aberration> frames;
    bool double_too;
  };
  const std::vector<Row> rows = {
      {"N16_M32_none", shape(16, 32, G::centered, Nm::none), one, true},
      {"N40_M64_sum", shape(40, 64, G::centered, Nm::sum), one, true},
      {"N256_M512_linspace_peak_crop100", shape(256, 512, G::linspace, Nm::peak, 100), one, true},
      {"N64_M128_peak", shape(64, 128, G::centered, Nm::peak), one, true},
      {"N100_M200_linspace_sum", shape(100, 200, G::linspace, Nm::sum), one, true},
      {"N128_M256_peak_crop64", shape(128, 256, G::centered, Nm::peak, 64), one, true},
      {"N512_M1024_peak", shape(512, 1024, G::centered, Nm::peak), one, true},
      {"N2048_M4096_peak", shape(2048, 4096, G::centered, Nm::peak), one, false},
      {"N64_M161_oddM_peak_crop33", shape(64, 161, G::centered, Nm::peak, 33), one, true},
      {"N64_M161_oddM_linspace_sum", shape(64, 161, G::linspace, Nm::sum), one, true},
      {"N63_M128_oddN_none", shape(63, 128, G::centered, Nm::none), one, true},
      {"N128_M256_obscured_sum_crop100", shape(128, 256, G::centered, Nm::sum, 100, 0.3), one,
       true},
      {"batch6_N64_M128_sum_crop48", shape(64, 128, G::centered, Nm::sum, 48), varied_frames(),
       true},
      {"batch6_N100_M250_linspace_none", shape(100, 250, G::linspace, Nm::none), varied_frames(),
       true},
      {"batch6_N100_M250_sum", shape(100, 250, G::centered, Nm::sum), varied_frames(), true},
      // Large enough for copies in pieces, overlapping the intensity of later pieces.
      {"batch9_N200_M420_pieces_sum", shape(200, 420, G::centered, Nm::sum), nine_frames(), true},
      {"batch9_N160_M400_linspace_peak_crop300", shape(160, 400, G::linspace, Nm::peak, 300),
       nine_frames(), true},
  };
  std::vector<CpuComparison> out;
  for (const Row& r : rows) {
    out.push_back({r.label + "_single", r.c, r.frames, Precision::single});
    if (r.double_too) out.push_back({r.label + "_double", r.c, r.frames, Precision::double_});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cases, CudaMatchesCpu, ::testing::ValuesIn(cpu_comparisons()),
                         [](const auto& info) { return info.param.label; });

// A batch whose output is too large to write directly runs its whole pipeline in pieces
// (overlapping copies); 21 frames make 4 pieces of 6, the last one short, so the last
// piece's FFT runs past the batch. Every frame must still match the CPU, in both
// precisions and with the per-frame sum normalization, and repeated calls must agree.
TEST(CudaBackend, PiecedBatchMatchesCpu) {
  SKIP_WITHOUT_CUDA();
  std::vector<Aberration> frames;
  for (int i = 0; i < 21; ++i) {
    std::vector<Aberration> v = varied_frames();
    Aberration f = v[i % v.size()];
    f.zernike.push_back({4, 0.05 * i - 0.5});
    frames.push_back(f);
  }
  for (const Precision precision : {Precision::single, Precision::double_})
    for (const Normalization n : {Normalization::peak, Normalization::sum}) {
      const test::Case c = shape(128, 256, Grid::linspace, n);
      SCOPED_TRACE(std::string(to_string(precision)) + " " + std::string(to_string(n)));
      const auto gpu = test::compute_frames("cuda", c, frames, precision);
      const auto cpu = test::compute_frames("cpu", c, frames, precision);
      ASSERT_EQ(gpu.size(), frames.size());
      for (std::size_t f = 0; f < frames.size(); ++f)
        EXPECT_LE(test::relative_l2(gpu[f], cpu[f]), test::backend_tolerance(precision))
            << "frame " << f;
    }
  const test::Case c = shape(128, 256, Grid::centered, Normalization::peak);
  const PsfPlan plan = test::plan_for(c, Precision::single, 21);
  const auto backend = make_backend("cuda", plan);
  const auto phases = test::compile_all(frames);
  const auto first = test::bytes_of(backend->compute(phases), plan);
  EXPECT_EQ(test::bytes_of(backend->compute(phases), plan), first);
  EXPECT_NE(backend->fused_stages().find("pieces"), std::string::npos) << backend->fused_stages();
}

TEST(CudaBackend, RaisingTheDegreeBetweenCallsStaysCorrect) {
  SKIP_WITHOUT_CUDA();
  test::Case c = shape(64, 128, Grid::centered, Normalization::peak);
  const PsfPlan plan = test::plan_for(c, Precision::double_, 2);
  const auto gpu = make_backend("cuda", plan);
  const auto cpu = make_backend("cpu", plan);
  for (const auto& frames : {std::vector<Aberration>{terms({{2, 0, 0.5}}), terms({})},
                             std::vector<Aberration>{terms({}, {{37, 0.05}}), mixed_terms()},
                             std::vector<Aberration>{terms({{2, 1, 2.0}}), terms({{1, 1, 3.0}})}}) {
    const auto phases = test::compile_all(frames);
    const std::vector<double> g = test::widen(gpu->compute(phases), plan);
    const std::vector<double> r = test::widen(cpu->compute(phases), plan);
    EXPECT_LE(test::relative_l2(g, r), test::backend_tolerance(Precision::double_));
  }
}

// Timing chosen from the sizes: a small call is one graph timed as a whole; a small output
// is written to host memory by the intensity kernel; else every stage.
TEST(CudaBackend, ReportsStagesInOrder) {
  SKIP_WITHOUT_CUDA();
  struct Expected {
    test::Case shape;
    std::vector<std::string> stages;
  };
  const std::vector<Expected> cases{
      {shape(512, 1024, Grid::centered, Normalization::peak), {"pupil+fft+intensity+transfer"}},
      {shape(1024, 2048, Grid::centered, Normalization::peak, 64),
       {"pupil", "fft", "intensity+transfer"}},
      {shape(1024, 2048, Grid::centered, Normalization::peak),
       {"pupil", "fft", "intensity", "transfer"}}};
  for (const Expected& e : cases) {
    SCOPED_TRACE("N=" + std::to_string(e.shape.samples) + " K=" + std::to_string(e.shape.crop));
    const PsfPlan plan = test::plan_for(e.shape, Precision::single, 1);
    const auto backend = make_backend("cuda", plan);
    EXPECT_EQ(backend->name(), "cuda");
    EXPECT_FALSE(backend->device_name().empty());
    EXPECT_EQ(backend->fused_stages().empty(), e.stages.size() == 4);
    const FrameBlock block = backend->compute(test::compile_all({mixed_terms()}));
    ASSERT_EQ(block.times.stages.size(), e.stages.size());
    double stages = 0.0;
    for (std::size_t s = 0; s < e.stages.size(); ++s) {
      EXPECT_EQ(block.times.stages[s].first, e.stages[s]);
      EXPECT_GE(block.times.stages[s].second, 0.0);
      stages += block.times.stages[s].second;
    }
    EXPECT_GT(stages, 0.0);
    EXPECT_GE(block.times.total, stages);
  }
}

// A batch's copies overlap the intensity of later pieces: all four stages, with a note.
// With --stage-timing, a batch too large to write directly reports all four stages, its
// copies overlapping the intensity of later pieces.
TEST(CudaBackend, BatchCopiesOverlapIntensity) {
  SKIP_WITHOUT_CUDA();
  PsfPlan plan =
      test::plan_for(shape(256, 512, Grid::centered, Normalization::peak), Precision::single, 16);
  plan.stage_timing = true;
  const auto backend = make_backend("cuda", plan);
  EXPECT_NE(backend->fused_stages().find("transfer"), std::string::npos);
  const std::vector<Aberration> frames(16, mixed_terms());
  const FrameBlock block = backend->compute(test::compile_all(frames));
  const std::vector<std::string> expected{"pupil", "fft", "intensity", "transfer"};
  ASSERT_EQ(block.times.stages.size(), expected.size());
  double stages = 0.0;
  for (std::size_t s = 0; s < expected.size(); ++s) {
    EXPECT_EQ(block.times.stages[s].first, expected[s]);
    stages += block.times.stages[s].second;
  }
  EXPECT_GE(block.times.total, stages);
}

// ---------------------------------------------------------------------------------------
// Refusals.

TEST(CudaBackend, RefusesAMissingDevice) {
  SKIP_WITHOUT_CUDA();
  PsfPlan plan =
      test::plan_for(shape(16, 32, Grid::centered, Normalization::peak), Precision::single, 1);
  plan.device = 4096;
  EXPECT_THROW((void)make_backend("cuda", plan), InputError);
}

TEST(CudaBackend, RefusesABatchThatCannotFitWithTheFigures) {
  SKIP_WITHOUT_CUDA();
  const PsfPlan plan = test::plan_for(shape(1024, 65536, Grid::centered, Normalization::peak),
                                      Precision::double_, 1000);
  try {
    (void)make_backend("cuda", plan);
    FAIL() << "a batch of tens of TiB was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("of device memory"), std::string::npos) << what;
    EXPECT_NE(what.find("free on"), std::string::npos) << what;
  }
}

// Runs everywhere: a machine without a device must say so cleanly, then the test skips.
TEST(CudaBackendRegistry, ExplainsWhetherADeviceIsUsable) {
  const BackendEntry* entry = builtin_backends().find("cuda");
  ASSERT_NE(entry, nullptr);
  const std::string why = entry->unusable_reason();
  const std::vector<std::string> lines = entry->describe();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front().rfind("CUDA runtime", 0), 0u) << lines.front();
  if (!why.empty()) {
    EXPECT_EQ(why.rfind("no CUDA device: ", 0), 0u) << why;
    EXPECT_NE(std::find(lines.begin(), lines.end(), why), lines.end());
    GTEST_SKIP() << "CUDA backend not usable here: " << why;
  }
  EXPECT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[1].rfind("device 0: ", 0), 0u) << lines[1];
}

}  // namespace
}  // namespace psfsim

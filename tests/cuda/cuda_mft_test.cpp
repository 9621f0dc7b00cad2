// The CUDA MFT backend (plans with Propagation::mft): against docs/spec.md §6's double sum
// evaluated
// directly here, against the cuFFT backend's central crop at the FFT's pixel scale, its
// pieces against single frames, its stage timings and its refusals. Every test skips
// visibly where no CUDA device is usable.
//
// Tolerances (relative L2, docs/spec.md §1): 1e-5 in single and 1e-10 in double precision against
// the direct sum and against the FFT path (test::reference_tolerance).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <memory>
#include <numbers>
#include <ostream>
#include <string>
#include <vector>

#include "../test_support.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/metrics.hpp"
#include "psfsim/aberration_polynomial.hpp"

namespace psfsim {
namespace {

Aberration seidel(std::vector<SeidelTerm> terms) {
  Aberration t;
  t.seidel = std::move(terms);
  return t;
}

// Defocus; one wave of rho^2 cos(phi) (a rho table); spherical with rho^3 cos(phi) coma;
// aberration free: every frame of a batch different, odd and even in x.
std::vector<Aberration> seidel_frames() {
  return {seidel({{2, 0, 0.5}}), seidel({{2, 1, 1.0}}), seidel({{4, 0, 0.25}, {3, 1, 0.3}}),
          seidel({})};
}

std::unique_ptr<Backend> make_cuda(const PsfPlan& plan) {
  return builtin_backends().find("cuda")->create(plan);
}

// ---------------------------------------------------------------------------------------
// docs/spec.md §6 written out: the pupil, the double sum per output pixel, the channels' weighted
// intensities and the normalization, all in double, sharing nothing with psfsim but the
// plan's numbers.

double coordinate(int i, int n, Grid grid) {
  if (grid == Grid::centered) return (i - n / 2.0) * (2.0 / n);
  return i == n - 1 ? 1.0 : -1.0 + i * (2.0 / (n - 1));
}

struct MftCase {
  std::string label;
  int samples = 16;
  Grid grid = Grid::centered;
  double obscuration = 0.0;
  int frame = 9;  // K
  double pixel_centre = 4;
  std::vector<SpectralChannel> channels;
  Normalization normalization = Normalization::none;
};

// Frames of `c` for `terms`, concatenated.
std::vector<double> direct_sum(const MftCase& c, const std::vector<Aberration>& frames) {
  const int n = c.samples;
  const int k = c.frame;
  std::vector<double> out;
  for (const Aberration& terms : frames) {
    std::vector<double> amplitude(static_cast<std::size_t>(n) * n, 0.0);
    std::vector<double> waves(amplitude.size(), 0.0);
    double aperture = 0.0;
    for (int r = 0; r < n; ++r)
      for (int col = 0; col < n; ++col) {
        const double x = coordinate(col, n, c.grid);
        const double y = coordinate(r, n, c.grid);
        const double rho = std::sqrt(x * x + y * y);
        if (rho > 1.0 || rho < c.obscuration) continue;
        const std::size_t i = static_cast<std::size_t>(r) * n + col;
        amplitude[i] = 1.0;
        aperture += 1.0;
        const double phi = std::atan2(y, x);
        for (const SeidelTerm& s : terms.seidel)
          waves[i] += s.waves * std::pow(rho, s.l) * std::pow(std::cos(phi), s.m);
      }
    std::vector<double> intensity(static_cast<std::size_t>(k) * k, 0.0);
    double weights = 0.0;
    for (const SpectralChannel& ch : c.channels) {
      weights += ch.weight;
      for (int q = 0; q < k; ++q)
        for (int p = 0; p < k; ++p) {
          const double theta_q = (q - c.pixel_centre) * ch.pixel_scale;
          const double theta_p = (p - c.pixel_centre) * ch.pixel_scale;
          std::complex<double> e = 0.0;
          for (int r = 0; r < n; ++r)
            for (int col = 0; col < n; ++col) {
              const std::size_t i = static_cast<std::size_t>(r) * n + col;
              if (amplitude[i] == 0.0) continue;
              const double xi_c = coordinate(col, n, c.grid) / 2.0;
              const double xi_r = coordinate(r, n, c.grid) / 2.0;
              e += std::polar(amplitude[i],
                              2.0 * std::numbers::pi *
                                  (ch.phase_scale * waves[i] - (theta_p * xi_c + theta_q * xi_r)));
            }
          intensity[static_cast<std::size_t>(q) * k + p] += ch.weight * std::norm(e);
        }
    }
    double scale = 1.0;
    if (c.normalization == Normalization::peak) scale = 1.0 / (aperture * aperture * weights);
    if (c.normalization == Normalization::sum) {
      double total = 0.0;
      for (double v : intensity) total += v;
      scale = 1.0 / total;
    }
    for (double v : intensity) out.push_back(v * scale);
  }
  return out;
}

// The plan of `c`: the grid's sampled pupil from the ordinary plan, then the MFT's fields.
PsfPlan mft_plan(const MftCase& c, Precision precision, int max_batch) {
  PsfPlan plan = test::plan_for(
      test::make_case(c.samples, 2 * c.samples, c.grid, c.normalization, 0, c.obscuration),
      precision, max_batch);
  plan.propagation = Propagation::mft;
  plan.frame = c.frame;
  plan.pixel_centre = c.pixel_centre;
  plan.channels = c.channels;
  return plan;
}

std::vector<double> frame_of(const std::vector<double>& frames, std::size_t f, int k) {
  const std::size_t pixels = static_cast<std::size_t>(k) * k;
  return {frames.begin() + static_cast<std::ptrdiff_t>(f * pixels),
          frames.begin() + static_cast<std::ptrdiff_t>((f + 1) * pixels)};
}

struct DirectSumCase {
  MftCase c;
  Precision precision;
};
void PrintTo(const DirectSumCase& d, std::ostream* os) { *os << d.c.label; }

class CudaMftMatchesDirectSum : public ::testing::TestWithParam<DirectSumCase> {};

TEST_P(CudaMftMatchesDirectSum, RelativeL2WithinTolerance) {
  SKIP_WITHOUT_CUDA();
  const MftCase& c = GetParam().c;
  const Precision precision = GetParam().precision;
  const std::vector<Aberration> frames = seidel_frames();
  const PsfPlan plan = mft_plan(c, precision, static_cast<int>(frames.size()));
  const auto backend = make_cuda(plan);
  const std::vector<double> gpu = test::widen(backend->compute(test::compile_all(frames)), plan);
  const std::vector<double> reference = direct_sum(c, frames);
  ASSERT_EQ(gpu.size(), reference.size());
  for (std::size_t f = 0; f < frames.size(); ++f)
    EXPECT_LE(test::relative_l2(frame_of(gpu, f, c.frame), frame_of(reference, f, c.frame)),
              test::reference_tolerance(precision))
        << "frame " << f;
}

std::vector<DirectSumCase> direct_sum_cases() {
  using G = Grid;
  using Nm = Normalization;
  // Three wavelengths about a reference: scales and phases in proportion, unequal weights.
  const auto three = [](double s) {
    return std::vector<SpectralChannel>{
        {s, 1.0, 0.5}, {s * 1.2, 1.0 / 1.2, 0.3}, {s * 0.8, 1.0 / 0.8, 0.2}};
  };
  const auto one = [](double s) { return std::vector<SpectralChannel>{{s, 1.0, 1.0}}; };
  const std::vector<MftCase> cases = {
      {"N16_K9_s037_none", 16, G::centered, 0.0, 9, 4, one(0.37), Nm::none},
      {"N16_K12_s13_peak", 16, G::centered, 0.0, 12, 6, one(1.3), Nm::peak},
      {"N16_K12_s037_linspace_sum", 16, G::linspace, 0.0, 12, 6, one(0.37), Nm::sum},
      {"N21_K9_s13_linspace_obscured_peak", 21, G::linspace, 0.3, 9, 4, one(1.3), Nm::peak},
      {"N16_K10_s037_3ch_none", 16, G::centered, 0.0, 10, 5, three(0.37), Nm::none},
      {"N20_K11_s13_3ch_peak", 20, G::centered, 0.2, 11, 5, three(1.3), Nm::peak},
      {"N17_K8_s13_3ch_linspace_sum", 17, G::linspace, 0.0, 8, 4, three(1.3), Nm::sum},
      // Half-pixel centres (as oversampling has them), and a frame wider than 2N.
      {"N16_K10_halfpixel_s037_3ch_sum", 16, G::centered, 0.0, 10, 4.5, three(0.37), Nm::sum},
      {"N8_K21_s037_peak", 8, G::centered, 0.0, 21, 10, one(0.37), Nm::peak},
  };
  std::vector<DirectSumCase> out;
  for (const MftCase& c : cases)
    for (const Precision p : {Precision::single, Precision::double_}) {
      MftCase labelled = c;
      labelled.label += p == Precision::single ? "_single" : "_double";
      out.push_back({labelled, p});
    }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cases, CudaMftMatchesDirectSum, ::testing::ValuesIn(direct_sum_cases()),
                         [](const auto& info) { return info.param.c.label; });

// ---------------------------------------------------------------------------------------
// At the FFT's pixel scale (N/M centered, (N-1)/M linspace) and pixel centre K/2, the MFT's
// intensity is the central K x K of the FFT frame (docs/spec.md §6), normalization included.

struct FftCase {
  std::string label;
  test::Case shape;  // crop: K
  Precision precision;
};
void PrintTo(const FftCase& f, std::ostream* os) { *os << f.label; }

class CudaMftMatchesCroppedFft : public ::testing::TestWithParam<FftCase> {};

TEST_P(CudaMftMatchesCroppedFft, RelativeL2WithinTolerance) {
  SKIP_WITHOUT_CUDA();
  const FftCase& p = GetParam();
  std::vector<Aberration> frames = seidel_frames();
  Aberration zernike;
  zernike.zernike = {{7, 0.1}, {11, 0.05}, {22, 0.08}};
  frames.push_back(zernike);
  PsfPlan fft_plan = test::plan_for(p.shape, p.precision, static_cast<int>(frames.size()));
  fft_plan.propagation = Propagation::fft;  // what `auto` would pick is not the point here
  PsfPlan plan = fft_plan;
  plan.propagation = Propagation::mft;
  const int k = p.shape.crop;
  const int n = p.shape.samples;
  const double s =
      (p.shape.grid == Grid::centered ? n : n - 1) / static_cast<double>(p.shape.padded);
  plan.channels = {SpectralChannel{s, 1.0, 1.0}};
  plan.pixel_centre = k / 2;

  const auto phases = test::compile_all(frames);
  const auto fft = make_cuda(fft_plan);
  const std::vector<double> expected = test::widen(fft->compute(phases), fft_plan);
  const auto mft = make_cuda(plan);
  const std::vector<double> got = test::widen(mft->compute(phases), plan);
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t f = 0; f < frames.size(); ++f)
    EXPECT_LE(test::relative_l2(frame_of(got, f, k), frame_of(expected, f, k)),
              test::reference_tolerance(p.precision))
        << "frame " << f;
}

std::vector<FftCase> fft_cases() {
  using G = Grid;
  using Nm = Normalization;
  const std::vector<std::pair<std::string, test::Case>> shapes = {
      {"N64_M128_K48_peak", test::make_case(64, 128, G::centered, Nm::peak, 48)},
      {"N64_M128_K64_none", test::make_case(64, 128, G::centered, Nm::none, 64)},
      {"N100_M250_K61_linspace_sum", test::make_case(100, 250, G::linspace, Nm::sum, 61)},
      {"N63_M161_K33_oddM_obscured_none", test::make_case(63, 161, G::centered, Nm::none, 33, 0.2)},
      {"N128_M256_K64_peak", test::make_case(128, 256, G::centered, Nm::peak, 64)},
  };
  std::vector<FftCase> out;
  for (const auto& [label, shape] : shapes)
    for (const Precision p : {Precision::single, Precision::double_})
      out.push_back({label + (p == Precision::single ? "_single" : "_double"), shape, p});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cases, CudaMftMatchesCroppedFft, ::testing::ValuesIn(fft_cases()),
                         [](const auto& info) { return info.param.label; });

// ---------------------------------------------------------------------------------------
// A batch whose frames are copied to the host after its graph (overlapping the next call),
// or computed in pieces bounded by device memory, against the same frames one call each;
// two calls queued at once give the same bytes as one call.
// The products' shapes differ between the two, so cuBLAS may sum in another order: the
// tolerance is that between two backends (test::backend_tolerance).

std::vector<Aberration> defocus_series(int count) {
  std::vector<Aberration> frames;
  const std::vector<Aberration> base = seidel_frames();
  for (int i = 0; i < count; ++i) {
    Aberration f = base[static_cast<std::size_t>(i) % base.size()];
    f.seidel.push_back({2, 0, 0.002 * i - 0.4});
    frames.push_back(f);
  }
  return frames;
}

void expect_batch_matches_single_frames(const MftCase& c, int batch, bool stage_timing,
                                        const std::string& fused) {
  for (const Precision precision : {Precision::single, Precision::double_}) {
    SCOPED_TRACE(c.label + " " + std::string(to_string(precision)));
    const std::vector<Aberration> frames = defocus_series(batch);
    PsfPlan plan = mft_plan(c, precision, batch);
    plan.stage_timing = stage_timing;
    const auto batched = make_cuda(plan);
    EXPECT_NE(batched->fused_stages().find(fused), std::string::npos) << batched->fused_stages();
    const auto phases = test::compile_all(frames);
    const FrameBlock block = batched->compute(phases);
    const std::vector<double> all = test::widen(block, plan);
    const auto bytes = test::bytes_of(block, plan);
    EXPECT_EQ(test::bytes_of(batched->compute(phases), plan), bytes) << "a repeated call differs";
    batched->submit(phases);
    batched->submit(phases);
    EXPECT_EQ(test::bytes_of(batched->finish(), plan), bytes) << "the first of two queued calls";
    EXPECT_EQ(test::bytes_of(batched->finish(), plan), bytes) << "the second of two queued calls";
    const PsfPlan single = mft_plan(c, precision, 1);
    const auto one = make_cuda(single);
    int failures = 0;
    for (std::size_t f = 0; f < phases.size() && failures < 10; ++f) {
      const std::vector<AberrationPolynomial> phase{phases[f]};
      const double error =
          test::relative_l2(frame_of(all, f, c.frame), test::widen(one->compute(phase), single));
      failures += error > test::backend_tolerance(precision);
      EXPECT_LE(error, test::backend_tolerance(precision)) << "frame " << f;
    }
  }
}

TEST(CudaMft, FramesCopiedAfterTheGraphMatchSingleFrames) {
  SKIP_WITHOUT_CUDA();
  // 900 frames of 128 x 128 (57 MiB in single), and 300 with three channels: past the
  // direct write, so copied by the copy engine after the call's graph.
  const MftCase c{"N16_K128_sum",    16, Grid::centered, 0.0, 128, 64, {{0.37, 1.0, 1.0}},
                  Normalization::sum};
  expect_batch_matches_single_frames(c, 900, false, "after the graph");
  MftCase peak = c;
  peak.label = "N16_K128_3ch_peak";
  peak.normalization = Normalization::peak;
  peak.channels = {{0.37, 1.0, 0.5}, {0.44, 0.84, 0.5}, {0.3, 1.2, 0.25}};
  expect_batch_matches_single_frames(peak, 300, false, "after the graph");
}

TEST(CudaMft, MemoryBoundedPiecesMatchSingleFrames) {
  SKIP_WITHOUT_CUDA();
  // 672 KiB of piece buffers per frame in single precision, folded or not, twice that in
  // double: at most 780 and 390 frames under 512 MiB, so 2 pieces of 400 and 3 of 266 or 267;
  // timed by stage, and in one graph whose frames (12.5 MiB in single) are copied after it.
  const MftCase c{"N256_K64_peak",    256, Grid::centered, 0.0, 64, 32, {{0.5, 1.0, 1.0}},
                  Normalization::peak};
  expect_batch_matches_single_frames(c, 800, true, "pieces");
  expect_batch_matches_single_frames(c, 800, false, "after the graph");
}

// The folded products (psfsim/cuda/mft_fold.hpp), taken by a plan of frames alone, against
// the complex products, taken by the same plan with a metric (metrics read the unfolded
// fields): an amplitude map that opens every sample (the rim at -1, outside the circle,
// included), an OPD map per frame, three channels, even N and odd N (its middle
// sample alone), a pixel centre off the grid's. Tolerance: test::backend_tolerance, as for two
// backends.
TEST(CudaMft, FoldedProductsMatchTheComplexOnes) {
  SKIP_WITHOUT_CUDA();
  const std::vector<Aberration> frames = seidel_frames();
  const std::size_t count = frames.size();
  for (const Precision precision : {Precision::single, Precision::double_})
    for (const int n : {32, 33}) {
      SCOPED_TRACE("N " + std::to_string(n) +
                   (precision == Precision::single ? " single" : " double"));
      const MftCase c{"maps",
                      n,
                      Grid::centered,
                      0.0,
                      24,
                      11.5,
                      {{0.41, 1.0, 0.5}, {0.49, 0.84, 0.3}, {0.33, 1.25, 0.2}},
                      Normalization::none};
      PsfPlan folded = mft_plan(c, precision, static_cast<int>(count));
      SampledPupil facts = folded.sampled_pupil();
      const std::size_t samples = static_cast<std::size_t>(n) * n;
      facts.amplitude.resize(samples);
      for (std::size_t i = 0; i < samples; ++i)
        facts.amplitude[i] = 0.6 + 0.4 * std::cos(0.37 * static_cast<double>(i));
      facts.amplitude_maps = 1;
      facts.opd.resize(samples * count);
      for (std::size_t i = 0; i < facts.opd.size(); ++i)
        facts.opd[i] = 0.3 * std::sin(0.011 * static_cast<double>(i));
      facts.opd_maps = count;
      folded.pupil = std::make_shared<const SampledPupil>(facts);
      PsfPlan complex = folded;
      MetricsSpec strehl;
      strehl.metrics = {Metric::strehl};
      complex.metrics.columns = metric_columns(strehl);
      for (const MetricColumn& column : complex.metrics.columns)
        complex.metrics.values_per_frame += column.width;

      std::vector<AberrationPolynomial> phases = test::compile_all(frames);
      for (std::size_t f = 0; f < count; ++f) phases[f].batch_index = static_cast<long long>(f);
      const auto a = make_cuda(folded);
      const auto b = make_cuda(complex);
      ASSERT_NE(a->fused_stages().find("folded"), std::string::npos) << a->fused_stages();
      ASSERT_EQ(b->fused_stages().find("folded"), std::string::npos) << b->fused_stages();
      const std::vector<double> x = test::widen(a->compute(phases), folded);
      const std::vector<double> y = test::widen(b->compute(phases), complex);
      ASSERT_EQ(x.size(), y.size());
      for (std::size_t f = 0; f < count; ++f)
        EXPECT_LE(test::relative_l2(frame_of(x, f, c.frame), frame_of(y, f, c.frame)),
                  test::backend_tolerance(precision))
            << "frame " << f;
    }
}

// ---------------------------------------------------------------------------------------
// Timings and refusals.

TEST(CudaMft, ReportsStages) {
  SKIP_WITHOUT_CUDA();
  const MftCase c{"N64_K32", 64, Grid::centered,    0.0,
                  32,        16, {{0.5, 1.0, 1.0}}, Normalization::peak};
  for (const bool staged : {false, true}) {
    SCOPED_TRACE(staged ? "--stage-timing" : "default");
    PsfPlan plan = mft_plan(c, Precision::single, 4);
    plan.stage_timing = staged;
    const auto backend = make_cuda(plan);
    EXPECT_EQ(backend->name(), "cuda");
    EXPECT_FALSE(backend->device_name().empty());
    EXPECT_EQ(backend->fused_stages().empty(), staged) << backend->fused_stages();
    const FrameBlock block = backend->compute(test::compile_all(seidel_frames()));
    const std::vector<std::string> expected =
        staged ? std::vector<std::string>{"pupil", "mft", "intensity", "transfer"}
               : std::vector<std::string>{"pupil+mft+intensity+transfer"};
    ASSERT_EQ(block.times.stages.size(), expected.size());
    double stages = 0.0;
    for (std::size_t s = 0; s < expected.size(); ++s) {
      EXPECT_EQ(block.times.stages[s].first, expected[s]);
      EXPECT_GE(block.times.stages[s].second, 0.0);
      stages += block.times.stages[s].second;
    }
    EXPECT_GT(stages, 0.0);
    EXPECT_GE(block.times.total, stages);
  }
}

TEST(CudaMft, Refusals) {
  SKIP_WITHOUT_CUDA();
  const MftCase c{"N32_K16", 32, Grid::centered,    0.0,
                  16,        8,  {{0.5, 1.0, 1.0}}, Normalization::peak};
  PsfPlan plan = mft_plan(c, Precision::single, 2);
  {
    const auto backend = make_cuda(plan);
    const auto three = test::compile_all(defocus_series(3));
    EXPECT_THROW((void)backend->compute(three), InputError);
  }
  PsfPlan missing = plan;
  missing.device = 4096;
  EXPECT_THROW((void)make_cuda(missing), InputError);
  PsfPlan no_channels = plan;
  no_channels.channels.clear();
  EXPECT_THROW((void)make_cuda(no_channels), InputError);
  PsfPlan no_weight = plan;
  no_weight.channels = {{0.5, 1.0, 0.0}};
  EXPECT_THROW((void)make_cuda(no_weight), InputError);
  PsfPlan huge = mft_plan(c, Precision::double_, 1 << 20);
  huge.frame = 4096;  // 2 x 128 GiB of output frames alone
  try {
    (void)make_cuda(huge);
    FAIL() << "a batch of hundreds of GiB was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("of device memory"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace psfsim

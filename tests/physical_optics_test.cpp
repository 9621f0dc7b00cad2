// docs/spec.md §6 end to end, through PsfRun on every compiled backend: the MFT against the FFT's
// crop and against the double sum at any pixel scale, spectra against monochromatic runs and
// the Airy pattern, and the detector (oversampling, jitter, photon noise).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <numeric>
#include <tuple>

#include "psfsim/builtin_backends.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/pupil_math.hpp"
#include "psfsim/units.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

constexpr double pi = std::numbers::pi;

RunSpec base_spec(const std::string& backend, Precision precision, int n, Grid grid) {
  RunSpec s;
  s.backend = backend;
  s.precision = precision;
  s.samples = n;
  s.grid = grid;
  s.wisdom = "none";
  s.fft_effort = FftEffort::estimate;
  s.normalization = Normalization::none;
  s.frames = {Aberration{{{2, 1, 0.4}, {4, 0, 0.2}}, {{5, 0.05}, {8, -0.03}}}};
  return s;
}

std::vector<double> run_frame(const RunSpec& spec, std::size_t index = 0) {
  return run_spec_frames(spec).at(index);
}


// docs/spec.md §6's double sum, in double, from the grid and aperture of §1 and the phase's direct
// evaluation; pixel q at theta_q = (q - centre) s.
std::vector<double> direct_mft(const RunSpec& spec, int k, double s, double centre) {
  const int n = spec.samples;
  const AberrationPolynomial phase = compile_phase(spec.frames.front());
  std::vector<std::complex<double>> pupil(static_cast<std::size_t>(n) * n);
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = spec.grid == Grid::centered ? (i - n / 2.0) * (2.0 / n) : -1.0 + 2.0 * i / (n - 1);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double rho = std::sqrt(x[c] * x[c] + x[r] * x[r]);
      if (rho <= 1.0 && rho >= spec.obscuration)
        pupil[r * n + c] = std::polar(1.0, 2 * pi * phase.evaluate(x[c], x[r]));
    }
  std::vector<double> out(static_cast<std::size_t>(k) * k);
  for (int q = 0; q < k; ++q)
    for (int p = 0; p < k; ++p) {
      std::complex<double> e;
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
          if (pupil[r * n + c] != 0.0)
            e += pupil[r * n + c] *
                 std::polar(1.0,
                            -2 * pi * ((p - centre) * s * x[c] / 2 + (q - centre) * s * x[r] / 2));
      out[q * k + p] = std::norm(e);
    }
  return out;
}

class Backends : public ::testing::TestWithParam<std::tuple<std::string, Precision>> {
 protected:
  void SetUp() override {
    if (const auto why = skip_reason(backend()); !why.empty()) GTEST_SKIP() << why;
  }
  [[nodiscard]] std::string backend() const { return std::get<0>(GetParam()); }
  [[nodiscard]] Precision precision() const { return std::get<1>(GetParam()); }
};

TEST_P(Backends, MftEqualsTheFftCropAtTheFftsPixelScale) {
  for (const Grid grid : {Grid::centered, Grid::linspace})
    for (const int k : {17, 24})
      for (const Normalization norm :
           {Normalization::none, Normalization::peak, Normalization::sum}) {
        SCOPED_TRACE(std::string(to_string(grid)) + " K=" + std::to_string(k) + " " +
                     std::string(to_string(norm)));
        RunSpec fft = base_spec(backend(), precision(), 40, grid);
        fft.padded_size = 96;
        fft.crop = k;
        fft.normalization = norm;
        fft.optics.propagation = Propagation::fft;
        RunSpec mft = fft;
        mft.optics.propagation = Propagation::mft;
        EXPECT_LE(relative_l2(run_frame(mft), run_frame(fft)), backend_tolerance(precision()));
      }
}

TEST_P(Backends, MftMatchesTheDoubleSumAtPixelScalesNoFftHas) {
  for (const Grid grid : {Grid::centered, Grid::linspace})
    for (const double s : {0.37, 1.3})
      for (const int k : {9, 12}) {
        SCOPED_TRACE(std::string(to_string(grid)) + " s=" + std::to_string(s) +
                     " K=" + std::to_string(k));
        RunSpec spec = base_spec(backend(), precision(), 23, grid);
        spec.obscuration = 0.2;
        spec.optics.pixel_scale = Angle{s, true};
        spec.crop = k;
        EXPECT_LE(relative_l2(run_frame(spec), direct_mft(spec, k, s, k / 2)),
                  reference_tolerance(precision()));
      }
}

// I = sum_k w_k (s_k/s_ref)^2 |E_k|^2: each |E_k|^2 is a monochromatic run at lambda_k with
// the same detector (the same angle per pixel) and the same OPD, so the spectrum is their
// weighted sum.
TEST_P(Backends, SpectrumIsTheWeightedSumOfMonochromaticRuns) {
  RunSpec poly = base_spec(backend(), precision(), 32, Grid::centered);
  // OPD in nm: the same surface error at every wavelength, as each monochromatic run sees it.
  poly.optics.aberration_units = AberrationUnits::nm;
  poly.frames = {Aberration{{{2, 1, 200.0}}, {{5, 30.0}, {8, -20.0}}}};
  poly.optics.diameter_m = 2.0;
  poly.optics.pixel_scale = parse_angle("25mas", "--pixel-scale", false);
  poly.optics.wavelengths_text = "500nm:1,650nm:3";
  poly.optics.spectrum = {{500e-9, 0.25}, {650e-9, 0.75}};
  poly.crop = 21;
  const std::vector<double> mixed = run_frame(poly);
  const double ref = 0.25 * 500e-9 + 0.75 * 650e-9;
  std::vector<double> sum(mixed.size(), 0.0);
  for (const auto& line : poly.optics.spectrum) {
    RunSpec mono = poly;
    mono.optics.wavelengths_text.clear();
    mono.optics.spectrum.clear();
    mono.optics.wavelength_m = line.wavelength_m;
    const std::vector<double> frame = run_frame(mono);
    const double ratio = ref / line.wavelength_m;  // s_k / s_ref
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += line.weight * ratio * ratio * frame[i];
  }
  EXPECT_LE(relative_l2(mixed, sum), backend_tolerance(precision()));
}

// A clear pupil's spectrum against the Airy pattern [2 J1(pi u)/(pi u)]^2, u in lambda_k/D,
// at the same pixel centres: agreement to the pupil's sampling error (N = 128: about 1e-3).
TEST_P(Backends, ClearPupilSpectrumMatchesTheAiryPattern) {
  RunSpec poly = base_spec(backend(), precision(), 128, Grid::centered);
  poly.frames = {Aberration{}};
  poly.normalization = Normalization::peak;
  poly.optics.diameter_m = 6.5;
  poly.optics.pixel_scale = parse_angle("6mas", "--pixel-scale", false);
  poly.optics.band_text = "600nm-900nm,4";
  for (int i = 0; i < 4; ++i) poly.optics.spectrum.push_back({600e-9 + 100e-9 * i, 0.25});
  const int k = 31;
  poly.crop = k;
  const std::vector<double> frame = run_frame(poly);
  const double alpha = 6e-3 / 206264.80624709636;  // radians per pixel
  std::vector<double> airy(frame.size(), 0.0);
  double peak = 0.0;
  for (const auto& line : poly.optics.spectrum) {
    const double s_k = alpha * 6.5 / line.wavelength_m;
    const double energy = line.weight * s_k * s_k;
    peak += energy;
    for (int q = 0; q < k; ++q)
      for (int p = 0; p < k; ++p) {
        const double u = pi * s_k * std::hypot(p - k / 2, q - k / 2);
        const double a = u == 0.0 ? 1.0 : 2 * std::cyl_bessel_j(1.0, u) / u;
        airy[q * k + p] += energy * a * a;
      }
  }
  for (double& v : airy) v /= peak;
  EXPECT_NEAR(frame[(k / 2) * k + k / 2], 1.0, 1e-6);
  EXPECT_LE(relative_l2(frame, airy), 2e-3);
}

// Odd S puts sub-pixels on the grid of an MFT at s/S: a pixel of --normalize none is the
// mean of that run's S x S sub-pixels.
TEST_P(Backends, OversampledPixelsAreTheMeanOfTheirSubPixels) {
  RunSpec over = base_spec(backend(), precision(), 24, Grid::centered);
  over.optics.pixel_scale = Angle{0.9, true};
  over.optics.oversample = 3;
  over.crop = 7;
  RunSpec fine = over;
  fine.optics.oversample = 1;
  fine.optics.pixel_scale = Angle{0.3, true};
  fine.crop = 21;
  const std::vector<double> sub = run_frame(fine);
  std::vector<double> binned(49, 0.0);
  for (int r = 0; r < 21; ++r)
    for (int c = 0; c < 21; ++c) binned[(r / 3) * 7 + c / 3] += sub[r * 21 + c] / 9.0;
  EXPECT_LE(relative_l2(run_frame(over), binned), backend_tolerance(precision()));
}

// A pixel's value depends on S only through the integration: --normalize none's flux over a
// frame holding the PSF is the same at S = 1 and S = 3 (Riemann sums of one intensity at two
// resolutions), where summing the sub-pixels made it S^2 = 9 times larger.
TEST_P(Backends, OversamplingKeepsTheFluxOfNormalizeNone) {
  RunSpec one = base_spec(backend(), precision(), 32, Grid::centered);
  one.optics.pixel_scale = Angle{0.5, true};
  one.crop = 96;  // +-24 lambda/D
  RunSpec three = one;
  three.optics.oversample = 3;
  const auto a = run_frame(one), b = run_frame(three);
  const double flux_one = std::accumulate(a.begin(), a.end(), 0.0);
  const double flux_three = std::accumulate(b.begin(), b.end(), 0.0);
  EXPECT_NEAR(flux_three / flux_one, 1.0, 1e-2);
}

TEST_P(Backends, OversampleOneAndZeroJitterChangeNothing) {
  RunSpec plain = base_spec(backend(), precision(), 32, Grid::centered);
  plain.crop = 33;
  plain.normalization = Normalization::peak;
  RunSpec same = plain;
  same.optics.oversample = 1;
  same.optics.jitter = Angle{0.0, true};
  EXPECT_EQ(run_frame(same), run_frame(plain));
}

TEST_P(Backends, JitterConservesEnergyAwayFromTheEdge) {
  RunSpec plain = base_spec(backend(), precision(), 32, Grid::centered);
  plain.optics.propagation = Propagation::mft;
  plain.optics.pixel_scale = Angle{0.25, true};
  plain.crop = 160;  // +-20 lambda/D: the halo beyond holds under 1% of the energy
  plain.frames = {Aberration{}};
  RunSpec jittered = plain;
  jittered.optics.jitter = Angle{0.5, true};
  const auto a = run_frame(plain), b = run_frame(jittered);
  const double ea = std::accumulate(a.begin(), a.end(), 0.0);
  const double eb = std::accumulate(b.begin(), b.end(), 0.0);
  EXPECT_NEAR(eb / ea, 1.0, 2e-3);  // what jitter moves out of the frame, from its edge
  EXPECT_LT(b[80 * 160 + 80], 0.8 * a[80 * 160 + 80]);  // and it does blur
}

// --photons: P photo-electrons over the whole focal plane (Parseval), B per pixel; the frame's
// total is Poisson with that mean, plus read noise, within 5 standard deviations.
TEST_P(Backends, PhotonsFillTheFocalPlaneAndNoiseIsReproducible) {
  RunSpec spec = base_spec(backend(), precision(), 32, Grid::centered);
  spec.frames = {Aberration{}, Aberration{{}, {{4, 0.1}}}};
  spec.crop = 64;  // the whole FFT frame (M = 64): nothing is lost
  const double photons = 1e6, background = 3.0, read_noise = 2.0;
  spec.optics.photons = photons;
  spec.optics.background = background;
  spec.optics.read_noise = read_noise;
  spec.optics.noise_seed = 42;
  const auto frames = run_spec_frames(spec);
  const double pixels = 64.0 * 64.0;
  for (const auto& f : frames) {
    const double total = std::accumulate(f.begin(), f.end(), 0.0);
    const double mean = photons + background * pixels;
    const double sigma = std::sqrt(mean + pixels * read_noise * read_noise);
    EXPECT_NEAR(total, mean, 5 * sigma);
  }
  RunSpec chunked = spec;
  chunked.chunk_frames = 1;
  EXPECT_EQ(run_spec_frames(chunked), frames);  // any chunking: the same bytes
  RunSpec reseeded = spec;
  reseeded.optics.noise_seed = 43;
  EXPECT_NE(run_spec_frames(reseeded), frames);
}

INSTANTIATE_TEST_SUITE_P(All, Backends,
                         ::testing::Combine(::testing::ValuesIn(compiled_backends()),
                                            ::testing::Values(Precision::single,
                                                              Precision::double_)),
                         [](const auto& info) { return backend_and_precision(info); });

}  // namespace
}  // namespace psfsim::test

// docs/spec.md §7's per-frame metrics against analytic results, through PsfRun into a
// FrameCollector: the Airy pattern's encircled energy and FWHM, the clear pupil's MTF,
// Maréchal's Strehl, the tilt's centroid, the whole-pixel tilt's two Strehl ratios, the MFT
// against the FFT, the normalizations, and the GPU against the CPU.
//
// Tolerances are stated where they are used. Two kinds occur: rounding (the quantity is
// exact for the sampled pupil; the bound is a few hundred ulps of the precision) and
// discretization (the analytic value is for the continuous disk; psfsim samples the pupil on
// N x N points and the focal plane on pixels, and the bound is set from the size of that
// error, measured at the N used and kept with a margin of about 2, so that a wrong factor,
// sign or unit is still far outside it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "psfsim/aperture_spec.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/metric_math.hpp"
#include "psfsim/metrics.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/spectrum.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

constexpr double pi = std::numbers::pi;

// The Airy pattern's encircled energy at r lambda/D: 1 - J0(pi r)^2 - J1(pi r)^2.
double airy_ee(double r) {
  const double x = pi * r;
  return 1.0 - std::pow(std::cyl_bessel_j(0.0, x), 2) - std::pow(std::cyl_bessel_j(1.0, x), 2);
}

// The Airy pattern's intensity at r lambda/D over its peak: [2 J1(pi r)/(pi r)]^2.
double airy_intensity(double r) {
  if (r == 0.0) return 1.0;
  const double x = pi * r;
  return std::pow(2.0 * std::cyl_bessel_j(1.0, x) / x, 2);
}

// The clear circular pupil's MTF at nu (units of the cutoff D/lambda).
double disk_mtf(double nu) { return 2.0 / pi * (std::acos(nu) - nu * std::sqrt(1.0 - nu * nu)); }

// The Airy FWHM in lambda/D: 2 r where [2 J1(pi r)/(pi r)]^2 = 1/2, by bisection (1.0290).
double airy_fwhm() {
  double lo = 0.3, hi = 0.7;
  for (int i = 0; i < 100; ++i) {
    const double mid = 0.5 * (lo + hi);
    (airy_intensity(mid) > 0.5 ? lo : hi) = mid;
  }
  return lo + hi;
}

// A run's frames and metric rows, with the columns that name the rows' values.
struct Result {
  std::vector<MetricColumn> columns;
  std::vector<std::vector<double>> rows;
  std::vector<std::vector<double>> frames;  // empty with --store metrics
  int edge = 0;

  [[nodiscard]] const MetricColumn& column(const std::string& name) const {
    for (const auto& c : columns)
      if (c.name == name) return c;
    throw std::runtime_error("no metric column " + name);
  }
  // Value `k` of column `name` of frame `f`.
  [[nodiscard]] double at(const std::string& name, std::size_t f = 0, std::size_t k = 0) const {
    const MetricColumn& c = column(name);
    if (k >= c.width) throw std::runtime_error("metric column " + name + " is narrower");
    return rows.at(f).at(c.offset + k);
  }
};

Result run_metrics(const RunSpec& spec) {
  PsfRun run(spec, builtin_backends());
  FrameCollector collected;
  (void)run.execute(collected);
  Result r;
  r.columns = metric_columns(spec.metrics);
  r.edge = collected.edge();
  std::size_t width = 0;
  for (const auto& c : r.columns) width += c.width;
  for (std::size_t f = 0; f < collected.frames(); ++f) {
    const auto m = collected.metrics(f);
    if (m.size() != width)
      throw std::runtime_error("frame " + std::to_string(f) + " has " + std::to_string(m.size()) +
                               " metric values, not " + std::to_string(width));
    r.rows.emplace_back(m.begin(), m.end());
    if (spec.metrics.stores_frames())
      r.frames.emplace_back(collected.frame(f).begin(), collected.frame(f).end());
  }
  return r;
}

// A run on `backend` of one frame of `terms` with every metric; N samples, M = pad * N.
RunSpec metric_spec(const std::string& backend, Precision precision, int n, double pad,
                    Aberration terms = {}) {
  RunSpec s;
  s.backend = backend;
  s.precision = precision;
  s.samples = n;
  s.pad_factor = pad;
  s.normalization = Normalization::peak;
  s.wisdom = "none";
  s.fft_effort = FftEffort::estimate;
  s.frames = {std::move(terms)};
  s.metrics.metrics = parse_metrics("all");
  return s;
}

// Noll Zernikes Z4..Z11 at (x, y) of the unit disk (Noll 1976, orthonormal: RMS 1 over it),
// written out here rather than taken from psfsim.
double noll(int j, double x, double y) {
  const double r = std::hypot(x, y), p = std::atan2(y, x), r2 = r * r;
  switch (j) {
    case 4: return std::sqrt(3.0) * (2 * r2 - 1);
    case 5: return std::sqrt(6.0) * r2 * std::sin(2 * p);
    case 6: return std::sqrt(6.0) * r2 * std::cos(2 * p);
    case 7: return std::sqrt(8.0) * (3 * r2 - 2) * r * std::sin(p);
    case 8: return std::sqrt(8.0) * (3 * r2 - 2) * r * std::cos(p);
    case 9: return std::sqrt(8.0) * r2 * r * std::sin(3 * p);
    case 10: return std::sqrt(8.0) * r2 * r * std::cos(3 * p);
    case 11: return std::sqrt(5.0) * (6 * r2 * r2 - 6 * r2 + 1);
    default: throw std::runtime_error("noll: only Z4..Z11 here");
  }
}

// Over docs/spec.md §1's centered N x N clear pupil, for W = sum c_j Z_j: the piston-removed RMS of
// W and |<exp(2 pi i W)>|^2, the value on the axis over the aberration-free peak.
struct SampledPupil {
  double rms = 0.0;
  double centre_strehl = 0.0;
  double kurtosis = 0.0;  // <(W - <W>)^4> / rms^4
};
SampledPupil sampled_pupil(int n, const std::vector<ZernikeTerm>& terms) {
  std::vector<double> ws;
  std::complex<double> field;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double x = (c - n / 2.0) * (2.0 / n), y = (r - n / 2.0) * (2.0 / n);
      if (x * x + y * y > 1.0) continue;
      double w = 0.0;
      for (const auto& t : terms) w += t.waves * noll(t.j, x, y);
      ws.push_back(w);
      field += std::polar(1.0, 2 * pi * w);
    }
  const double a = static_cast<double>(ws.size());
  double mean = 0.0, m2 = 0.0, m4 = 0.0;
  for (double w : ws) mean += w / a;
  for (double w : ws) {
    m2 += (w - mean) * (w - mean) / a;
    m4 += std::pow(w - mean, 4) / a;
  }
  return {std::sqrt(m2), std::norm(field / a), m4 / (m2 * m2)};
}

// ---------------------------------------------------------------------------------------
// 1. The Airy pattern: N = 128, Q = 8 (M = 1024), crop K = 256 (+-16 lambda/D), double.

class AiryMetrics : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    RunSpec s = metric_spec("cpu", Precision::double_, 128, 8.0);
    s.crop = 256;
    s.metrics.ee_radii = {0.5, 1.0, 1.22, 1.5, 2.0, 2.23, 3.0, 5.0};
    s.metrics.metrics = parse_metrics("strehl,strehl_centre,centroid,fwhm,ee");
    result_ = new Result(run_metrics(s));
  }
  static void TearDownTestSuite() {
    delete result_;
    result_ = nullptr;
  }
  static const Result& result() { return *result_; }

 private:
  static inline Result* result_ = nullptr;
};

TEST_F(AiryMetrics, EncircledEnergyIsTheAiryPatterns) {
  const Result& r = result();
  // The round numbers (to their 3 digits), then the exact 1 - J0^2 - J1^2.
  EXPECT_NEAR(r.at("ee", 0, 2), 0.838, 5e-4);
  EXPECT_NEAR(r.at("ee", 0, 5), 0.910, 5e-4);
  // psfsim's EE is exact for the sampled pupil (metrics_ee_exact_test.cpp); what separates
  // it from the continuous Airy value is the N = 128 disk's stair-stepped rim: its PSF is
  // not quite Airy's, by up to -2.3e-3 at 0.5 lambda/D and -1.2e-3 at 1, where the core's
  // energy density carries the O(1/N) rim error, and by <= 6e-5 from 1.22 lambda/D on, where
  // the EE curve is flat. So 3e-3 inside 1.22 lambda/D and 5e-4 from there on. A crop-sum
  // instead of Parseval's total (the +-16 lambda/D window holds ~98.7 %: +1.1e-2 at 1.22) or
  // a radius unit error is far outside.
  const std::vector<double> radii{0.5, 1.0, 1.22, 1.5, 2.0, 2.23, 3.0, 5.0};
  for (std::size_t k = 0; k < radii.size(); ++k)
    EXPECT_NEAR(r.at("ee", 0, k), airy_ee(radii[k]), radii[k] < 1.22 ? 3e-3 : 5e-4)
        << "r = " << radii[k] << " lambda/D";
  // Monotone in r, and below 1 (the energy beyond 16 lambda/D is in the total).
  for (std::size_t k = 1; k < radii.size(); ++k) EXPECT_GT(r.at("ee", 0, k), r.at("ee", 0, k - 1));
  EXPECT_LT(r.at("ee", 0, radii.size() - 1), 1.0);
}

TEST_F(AiryMetrics, FwhmIsTheAiryPatterns) {
  // 1.029 lambda/D. Tolerance 4e-3 lambda/D: the profile's bins are one pixel (1/8 lambda/D)
  // and the half-maximum crossing is linearly interpolated between bin means, an error of
  // O(h^2 I''/I'), ~1e-3 lambda/D at h = 1/8; the rim sampling adds O(1/N). Measured
  // +1.6e-3 (1.0306).
  EXPECT_NEAR(airy_fwhm(), 1.029, 5e-4);  // the reference itself
  EXPECT_NEAR(result().at("fwhm"), airy_fwhm(), 4e-3);
}

// The FWHM is tried within 8, then 32 pixels of the maximum before the whole frame: each
// try that finds the half maximum must give the whole frame's profile. Airy
// patterns of half widths about 2, 12 and 41 pixels (8 samples padded 4, 24 and 80 times)
// take each path; the reference is the definition (metric_math.hpp: bins round(d) about the
// first maximum, their mean values and distances, the linear crossing of half the maximum)
// over the whole stored frame, written out here. Tolerance 1e-12 relative: the stored frame
// is the normalized one and the units are applied in another order; a try that stopped at
// another bin would be off by a tenth of a pixel or more.
double whole_frame_fwhm_pixels(const std::vector<double>& frame, int edge) {
  const auto peak_at = std::max_element(frame.begin(), frame.end()) - frame.begin();
  const int pr = static_cast<int>(peak_at / edge), pc = static_cast<int>(peak_at % edge);
  const double peak = frame[static_cast<std::size_t>(peak_at)];
  const int bins = 2 * edge;
  std::vector<double> sums(bins), distances(bins), counts(bins);
  for (int r = 0; r < edge; ++r)
    for (int c = 0; c < edge; ++c) {
      const double d = std::hypot(double(c - pc), double(r - pr));
      const int b = static_cast<int>(d + 0.5);
      sums[b] += frame[static_cast<std::size_t>(r) * edge + c];
      distances[b] += d;
      counts[b] += 1.0;
    }
  double r0 = 0.0, v0 = peak;
  for (int b = 1; b < bins; ++b) {
    if (counts[b] == 0.0) continue;
    const double r = distances[b] / counts[b], v = sums[b] / counts[b];
    if (v <= 0.5 * peak) return 2.0 * (v0 == v ? r : r0 + (v0 - 0.5 * peak) / (v0 - v) * (r - r0));
    r0 = r;
    v0 = v;
  }
  return NAN;
}

TEST(MetricsFwhm, EveryTryGivesTheWholeFramesProfile) {
  for (const double pad : {4.0, 24.0, 80.0}) {
    RunSpec s = metric_spec("cpu", Precision::double_, 8, pad);
    s.metrics.metrics = parse_metrics("fwhm");
    s.metrics.store = Store::both;
    const Result r = run_metrics(s);
    const double pixels = whole_frame_fwhm_pixels(r.frames.at(0), r.edge);
    EXPECT_NEAR(pixels / 2, pad * 1.029 / 2, 0.02 * pad) << "pad " << pad;  // the Airy pattern's
    EXPECT_NEAR(r.at("fwhm"), pixels / pad, 1e-12 * pixels / pad) << "pad " << pad;
  }
}

TEST_F(AiryMetrics, StrehlRatiosAreOne) {
  // The aberration-free peak is (sum A)^2 exactly, on the axis pixel (K/2, K/2): both ratios
  // are 1 to double rounding of a 1024^2 FFT (relative error ~ log2(M) eps * a few).
  EXPECT_NEAR(result().at("strehl"), 1.0, 1e-12);
  EXPECT_NEAR(result().at("strehl_centre"), 1.0, 1e-12);
}

TEST_F(AiryMetrics, CentroidIsOnTheAxisUpToTheCropsExtraRowAndColumn) {
  const Result& r = result();
  const int k = r.edge;
  ASSERT_EQ(k, 256);
  // The PSF of a real pupil is centrosymmetric about the axis (K/2, K/2), and the window
  // holds offsets -K/2 .. K/2 - 1 of it: all but the first column and row pair off, so the
  // centroid is about -(K/2) s E_edge / E_window, with E_edge the energy of the first
  // column (row); the first row's x-moment is ~0 (the Airy pattern is even in x too).
  // Bound it by that, with 1e-12 lambda/D of rounding.
  const auto& f = r.frames.front();
  double total = 0.0, first_column = 0.0, first_row = 0.0;
  for (int y = 0; y < k; ++y)
    for (int x = 0; x < k; ++x) {
      const double v = f[static_cast<std::size_t>(y) * k + x];
      total += v;
      if (x == 0) first_column += v;
      if (y == 0) first_row += v;
    }
  const double s = 1.0 / 8.0;
  const double bound_x = (k / 2) * s * first_column / total + 1e-12;
  const double bound_y = (k / 2) * s * first_row / total + 1e-12;
  EXPECT_LE(std::abs(r.at("centroid_x")), bound_x);
  EXPECT_LE(std::abs(r.at("centroid_y")), bound_y);
  EXPECT_LT(bound_x, 1e-3);  // and that is small: the wings at 16 lambda/D are faint
  // The pupil is symmetric under x <-> y (one grid for both axes): so is the PSF.
  EXPECT_NEAR(r.at("centroid_x"), r.at("centroid_y"), 1e-14);
}

// ---------------------------------------------------------------------------------------
// 2. The MTF of the clear circular pupil, at the Nyquist sampling M = 2N.

TEST(MetricsMtf, ClearPupilIsTheDiskAutocorrelation) {
  RunSpec s = metric_spec("cpu", Precision::double_, 128, 2.0);
  const std::vector<double> nu{0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0};
  s.metrics.metrics = parse_metrics("mtf");
  s.metrics.mtf_frequencies = nu;
  const Result full = run_metrics(s);
  // Tolerance 1e-3: the OTF of the sampled pupil is the autocorrelation of the N = 128
  // stair-stepped disk, whose overlap areas differ from the circles' by O(1/N) of the rim
  // length; bilinear interpolation between OTF samples (128 per cutoff) adds O(1e-5).
  // Measured: -4.2e-4 at worst (nu = 0.7). A cutoff off by a factor 2 (pixel or pad
  // confusion) errs by > 0.2; an MTF taken from the crop instead of the whole plane by more
  // than 1e-3 (see the crop check below).
  for (std::size_t k = 0; k < nu.size(); ++k)
    EXPECT_NEAR(full.at("mtf", 0, k), disk_mtf(nu[k]), 1e-3) << "nu = " << nu[k];
  EXPECT_EQ(full.at("mtf", 0, 0), 1.0);  // the DC term over itself

  // The MTF is the transform of the whole focal plane: a crop does not change it.
  s.crop = 32;
  const Result cropped = run_metrics(s);
  for (std::size_t k = 0; k < nu.size(); ++k)
    EXPECT_NEAR(cropped.at("mtf", 0, k), full.at("mtf", 0, k), 1e-12) << "nu = " << nu[k];
}

// The GPU keeps the non-redundant half of the OTF of a real plane: every frequency read
// through half_plane_index has the modulus the whole transform has there (a direct DFT of a
// random real plane, even and odd M, frequencies wrapped either way).
TEST(MetricsMtf, HalfPlaneIndexReadsEveryFrequencysModulus) {
  for (const int m : {8, 9}) {
    std::vector<double> plane(static_cast<std::size_t>(m) * m);
    for (std::size_t i = 0; i < plane.size(); ++i) plane[i] = std::sin(1.7 * i + 0.3) + 1.1;
    std::vector<std::complex<double>> whole(plane.size());
    for (int ky = 0; ky < m; ++ky)
      for (int kx = 0; kx < m; ++kx)
        for (int y = 0; y < m; ++y)
          for (int x = 0; x < m; ++x)
            whole[static_cast<std::size_t>(ky) * m + kx] +=
                plane[static_cast<std::size_t>(y) * m + x] *
                std::polar(1.0, -2.0 * std::numbers::pi * ((ky * y + kx * x) % m) / m);
    const int columns = m / 2 + 1;
    std::vector<std::complex<double>> half;
    for (int ky = 0; ky < m; ++ky)
      for (int kx = 0; kx < columns; ++kx)
        half.push_back(whole[static_cast<std::size_t>(ky) * m + kx]);
    for (int ky = -2 * m; ky < 2 * m; ++ky)
      for (int kx = -2 * m; kx < 2 * m; ++kx) {
        const long long at = metric::half_plane_index(ky, kx, m);
        ASSERT_GE(at, 0);
        ASSERT_LT(at, static_cast<long long>(half.size()));
        EXPECT_NEAR(std::abs(half[static_cast<std::size_t>(at)]),
                    std::abs(whole[static_cast<std::size_t>(metric::wrapped_index(ky, kx, m))]),
                    1e-12)
            << "M=" << m << " (" << ky << ", " << kx << ")";
      }
  }
}

// ---------------------------------------------------------------------------------------
// 3. Small aberrations: Maréchal's Strehl, and rms_wavefront = sqrt(sum c^2).

TEST(MetricsMarechal, StrehlFollowsMarechalAndRmsIsTheCoefficientsNorm) {
  const int n = 64;
  // Directions in Z4..Z11 (unit norm after scaling), each at three RMS values.
  const std::vector<std::vector<double>> directions{
      {1, 0, 0, 0, 0, 0, 0, 0},             // defocus alone
      {0, 0, 0, 1, 0, 0, 0, 0},             // coma alone
      {0, 0, 0, 0, 0, 0, 0, 1},             // spherical alone
      {1, -2, 1.5, 0.5, -1, 2, 0.7, -0.4},  // everything
      {0.3, 0.3, -0.3, 0.3, 0.3, -0.3, 0.3, 0.3}};
  for (const auto& dir : directions)
    for (const double sigma : {0.02, 0.035, 0.05}) {
      double norm = 0.0;
      for (double d : dir) norm += d * d;
      std::vector<ZernikeTerm> terms;
      double sum_c2 = 0.0;
      for (std::size_t i = 0; i < dir.size(); ++i) {
        if (dir[i] == 0.0) continue;
        const double c = sigma * dir[i] / std::sqrt(norm);
        terms.push_back({static_cast<int>(i) + 4, c});
        sum_c2 += c * c;
      }
      SCOPED_TRACE("sigma " + std::to_string(sigma) + " terms " + std::to_string(terms.size()));
      const Result r = run_metrics(metric_spec("cpu", Precision::double_, n, 2.0, {{}, terms}));
      const SampledPupil p = sampled_pupil(n, terms);

      // Exact for the sampled pupil, to rounding: the axis value is |sum A e^{2 pi i W}|^2,
      // and rms_wavefront is the piston-free RMS of W over its samples (psfsim's phase
      // polynomial evaluates the Zernikes to ~1e-12 waves: docs/conventions.md's Cartesian
      // expansion).
      EXPECT_NEAR(r.at("strehl_centre"), p.centre_strehl, 1e-11);
      EXPECT_NEAR(r.at("rms_wavefront"), p.rms, 1e-11);
      // Against the continuous disk: the sampled Zernikes are orthonormal only to O(1/N):
      // relative 2 % at N = 64 (measured: -0.04 % to -1.2 % over these directions).
      EXPECT_NEAR(r.at("rms_wavefront"), std::sqrt(sum_c2), 0.02 * std::sqrt(sum_c2));

      // Maréchal: with phi = 2 pi W piston-free and s = 2 pi rms, S = |<e^{i phi}>|^2 =
      // 1 - s^2 + s^4/4 + <phi^4>/12 + O(s^6), while exp(-s^2) = 1 - s^2 + s^4/2 + O(s^6):
      // they differ by s^4 (kurtosis/12 - 1/4) + O(s^6). The tolerance is that term, with
      // the sampled W's own kurtosis (1.8 for defocus, up to ~5 for the mixes), plus
      // 0.05 s^4 for the O(s^6) terms (s^2 <= 0.1 here; measured <= 0.012 s^4). The
      // maximum-based Strehl is at least the axis value and, the aberrations holding no
      // tilt, above it only at O(s^4) (the peak moves by O(s^2)): measured equal here.
      const double s2 = std::pow(2 * pi * p.rms, 2);
      const double marechal = std::exp(-s2);
      const double tol = s2 * s2 * (std::abs(p.kurtosis / 12 - 0.25) + 0.05);
      EXPECT_LE(tol, 0.25 * s2 * s2);  // a tolerance that still tests something
      EXPECT_NEAR(r.at("strehl_centre"), marechal, tol) << "kurtosis " << p.kurtosis;
      EXPECT_NEAR(r.at("strehl"), marechal, tol) << "kurtosis " << p.kurtosis;
      EXPECT_GE(r.at("strehl"), r.at("strehl_centre") - 1e-12);
      EXPECT_LT(r.at("strehl"), 1.0);  // and it does drop: s^2 >= 0.0158 here
    }
}

// ---------------------------------------------------------------------------------------
// 4. Tilt: Noll Z2 = 2 rho cos(phi) = 2x (x in pupil radii) = 4 xi (xi in units of D), so
// W = c Z2 is the linear phase 2 pi (4c) xi: the PSF moves by +4c lambda/D along +x (the
// forward FFT's kernel e^{-2 pi i k n / M}). Z3 = 2y moves it along +y (row = y).

// The centroid term of a window's extra first row (axis 0) or column (axis 1): a K-pixel
// window holds offsets -K/2 .. K/2 - 1 about the axis, so all but offset -K/2 pair off.
double edge_term(const std::vector<double>& frame, int k, double s, int axis) {
  double total = 0.0, edge = 0.0;
  for (int y = 0; y < k; ++y)
    for (int x = 0; x < k; ++x) {
      const double v = frame[static_cast<std::size_t>(y) * k + x];
      total += v;
      if ((axis == 0 ? y : x) == 0) edge += v;
    }
  return -(k / 2) * s * edge / total;
}

TEST(MetricsTilt, CentroidMovesByFourTimesTheCoefficient) {
  // N = 128, M = 256, the whole frame: +-64 lambda/D of the (periodic) focal plane.
  // Along the tilt, tolerance 4e-3 lambda/D + 1 % of the shift: the Airy line-spread wings
  // fall only as 1/x^2, so (a) the window's extra column at -M/2 pulls the centroid by
  // -(M/2) s E_edge / E, -2.5e-3 lambda/D unshifted (the across check below measures it),
  // and (b) the wings the shift carries past one edge come back at the other, -M s times
  // the energy of a strip as wide as the shift there, about -0.5 % of the shift. Measured:
  // -6.7e-3 (c = 0.25), -1.6e-3 (c = -0.1), -1.3e-2 (c = 0.6), so a margin of about 2; a
  // factor 2 (Z2 = x) or the sign is far outside.
  for (const double c : {0.25, -0.1, 0.6})
    for (const int j : {2, 3}) {
      SCOPED_TRACE("Z" + std::to_string(j) + " c = " + std::to_string(c));
      const Result r =
          run_metrics(metric_spec("cpu", Precision::double_, 128, 2.0, {{}, {{j, c}}}));
      const std::string along = j == 2 ? "centroid_x" : "centroid_y";
      const std::string across = j == 2 ? "centroid_y" : "centroid_x";
      EXPECT_NEAR(r.at(along), 4 * c, 4e-3 + 0.01 * std::abs(4 * c));
      // Across the tilt the PSF stays symmetric about the axis but for the window's extra
      // row (column): the centroid is exactly that edge term, up to the pupil's lone rim
      // samples at (0, -1) and (-1, 0), one sample against sum A = 1.3e4 (< 1e-9 lambda/D;
      // measured 1e-15).
      EXPECT_NEAR(r.at(across), edge_term(r.frames[0], r.edge, 0.5, j == 2 ? 0 : 1), 1e-9);
      // A pure tilt keeps the peak: the maximum-based Strehl stays near 1 (within the loss
      // of sampling a moved peak on the 1/2 lambda/D grid: Airy at 1/4 lambda/D is 0.85).
      EXPECT_GT(r.at("strehl"), 0.84);
      // and the wavefront's RMS is |c| (Z2, Z3 are orthonormal; rim sampling O(1/N)).
      EXPECT_NEAR(r.at("rms_wavefront"), std::abs(c), 0.01 * std::abs(c));
    }
}

// ---------------------------------------------------------------------------------------
// 5. A whole-pixel tilt: c = 1/(4Q) moves the PSF by exactly one pixel (the pupil's phase
// is then e^{2 pi i (i - N/2)/M}, one bin of the DFT), so its maximum is the aberration-free
// peak while the axis sees the aberration-free PSF one pixel off the axis.

TEST(MetricsTilt, WholePixelTiltKeepsTheMaximumStrehlAndDropsTheCentreValue) {
  for (const double q : {2.0, 4.0}) {
    SCOPED_TRACE("Q = " + std::to_string(q));
    const double c = 1.0 / (4.0 * q);
    RunSpec s = metric_spec("cpu", Precision::double_, 64, q, {{}, {{2, c}}});
    const Result tilted = run_metrics(s);
    s.frames = {Aberration{}};
    const Result plain = run_metrics(s);
    const int m = plain.edge;
    const auto& f0 = plain.frames.front();
    const auto& f1 = tilted.frames.front();
    const auto at = [m](const std::vector<double>& f, int r, int col) {
      return f[static_cast<std::size_t>(r) * m + ((col % m) + m) % m];
    };
    // The frame is the plain one moved by one column, periodically (peak-normalized values;
    // double rounding of an M^2 FFT).
    double worst = 0.0;
    for (int r = 0; r < m; ++r)
      for (int col = 0; col < m; ++col)
        worst = std::max(worst, std::abs(at(f1, r, col) - at(f0, r, col - 1)));
    EXPECT_LT(worst, 1e-12);
    // An exact shift: the maximum is (sum A)^2 to double rounding.
    EXPECT_NEAR(tilted.at("strehl"), 1.0, 1e-12);
    EXPECT_NEAR(plain.at("strehl_centre"), 1.0, 1e-12);
    // The centre holds the plain PSF's pixel next to the axis, to rounding ...
    EXPECT_NEAR(tilted.at("strehl_centre"), at(f0, m / 2, m / 2 + 1), 1e-12);
    // ... which is the Airy pattern at 1/Q lambda/D: 0.521 (Q = 2) and 0.855 (Q = 4).
    // Tolerance 2e-3: the N = 64 sampled disk's PSF against the continuous one, an O(1/N)
    // rim effect (measured +9.3e-4 at Q = 2, +4.0e-4 at Q = 4).
    EXPECT_NEAR(tilted.at("strehl_centre"), airy_intensity(1.0 / q), 2e-3);
    EXPECT_LT(tilted.at("strehl_centre"), 0.9);
    // And the centroid moved by one pixel, 1/Q lambda/D, less what the move carried round
    // the periodic plane: the plain frame's last column, now at -M/2 (rounding).
    double total = 0.0, last = 0.0;
    for (int r = 0; r < m; ++r)
      for (int col = 0; col < m; ++col) {
        total += at(f0, r, col);
        if (col == m - 1) last += at(f0, r, col);
      }
    const double pixel = 1.0 / q;
    EXPECT_NEAR(tilted.at("centroid_x"), plain.at("centroid_x") + pixel - m * pixel * last / total,
                1e-12);
    EXPECT_NEAR(tilted.at("centroid_x"), pixel, 0.05 * pixel);
  }
}

// ---------------------------------------------------------------------------------------
// 6. The MFT: at the FFT's pixel scale it is the FFT's crop (docs/spec.md §6) and so are its
// metrics;
// at a pixel scale no FFT has, the Airy values hold; a spectrum's Strehl is 1 unaberrated.

TEST(MetricsMft, EqualsTheFftAtTheFftsPixelScale) {
  for (const Precision p : {Precision::single, Precision::double_}) {
    SCOPED_TRACE(std::string(to_string(p)));
    RunSpec fft = metric_spec("cpu", p, 64, 4.0, {{{2, 1, 0.3}}, {{4, 0.05}, {8, 0.04}}});
    fft.metrics.metrics = parse_metrics("strehl,strehl_centre,centroid,fwhm,ee,rms_wavefront");
    fft.crop = 64;
    fft.optics.propagation = Propagation::fft;
    RunSpec mft = fft;
    mft.optics.propagation = Propagation::mft;
    const Result a = run_metrics(fft), b = run_metrics(mft);
    // The frames agree to backend_tolerance (1e-5 single, 1e-12 double, relative L2), and
    // each metric is a sum or ratio of sums of them: 20x that, relative to the value or 1.
    const double tol = 20 * backend_tolerance(p);
    for (std::size_t i = 0; i < a.rows[0].size(); ++i)
      EXPECT_NEAR(b.rows[0][i], a.rows[0][i], tol * std::max(1.0, std::abs(a.rows[0][i])))
          << "value " << i;
  }
}

TEST(MetricsMft, AiryValuesAtAPixelScaleNoFftHas) {
  // N = 64 at 0.3 lambda/D per pixel (M = 213.3: no FFT), K = 81 (+-12 lambda/D), against the
  // same analytic values and an FFT at 0.25 lambda/D (Q = 4).
  RunSpec mft = metric_spec("cpu", Precision::double_, 64, 2.0);
  mft.pad_factor.reset();
  mft.optics.pixel_scale = Angle{0.3, true};
  mft.crop = 81;
  mft.metrics.metrics = parse_metrics("strehl,strehl_centre,centroid,fwhm,ee");
  mft.metrics.ee_radii = {1.22, 2.23};
  RunSpec fft = metric_spec("cpu", Precision::double_, 64, 4.0);
  fft.crop = 96;
  fft.metrics = mft.metrics;
  const Result a = run_metrics(mft), b = run_metrics(fft);
  // strehl: the axis is pixel 40 of the odd window; the peak is (sum A)^2: rounding.
  EXPECT_NEAR(a.at("strehl"), 1.0, 1e-12);
  EXPECT_NEAR(a.at("strehl_centre"), 1.0, 1e-12);
  // Odd window, symmetric about the axis: the centroid is 0 to rounding.
  EXPECT_NEAR(a.at("centroid_x"), 0.0, 1e-12);
  EXPECT_NEAR(a.at("centroid_y"), 0.0, 1e-12);
  // EE: as in AiryMetrics, within 2e-3 for the N = 64 sampled rim (4e-3 kept); exact for
  // the sampled pupil, so the two propagations agree to rounding whatever their pixels.
  for (std::size_t k = 0; k < 2; ++k) {
    const double r = mft.metrics.ee_radii[k];
    EXPECT_NEAR(a.at("ee", 0, k), airy_ee(r), 4e-3) << "mft r = " << r;
    EXPECT_NEAR(b.at("ee", 0, k), airy_ee(r), 4e-3) << "fft r = " << r;
    EXPECT_NEAR(a.at("ee", 0, k), b.at("ee", 0, k), 1e-12) << "r = " << r;
  }
  // FWHM: one-pixel bins of 0.3 lambda/D, the crossing at 1.7 pixels: linear interpolation
  // of a curved profile errs by O(s^2 I''/I') ~ 2 % of the width: 0.03 lambda/D.
  EXPECT_NEAR(a.at("fwhm"), airy_fwhm(), 0.03);
  EXPECT_NEAR(b.at("fwhm"), airy_fwhm(), 0.03);
}

TEST(MetricsMft, PolychromaticStrehlOfAClearPupilIsOneAndItsEeTheWeightedAiryEe) {
  RunSpec s = metric_spec("cpu", Precision::double_, 64, 2.0);
  s.pad_factor.reset();
  s.optics.pixel_scale = Angle{0.25, true};  // lambda_ref/D, lambda_ref the mean: 600 nm
  s.optics.wavelengths_text = "500nm:1,600nm:2,700nm:1";
  s.optics.spectrum = parse_wavelengths(s.optics.wavelengths_text, "--wavelengths");
  s.crop = 65;  // +-8 lambda_ref/D
  s.metrics.metrics = parse_metrics("strehl,strehl_centre,centroid,ee,rms_wavefront");
  s.metrics.ee_radii = {1.22, 2.23, 3.0, 50.0};
  const Result r = run_metrics(s);
  // Every wavelength peaks on the axis pixel at its own (sum A)^2 share: rounding.
  EXPECT_NEAR(r.at("strehl"), 1.0, 1e-12);
  EXPECT_NEAR(r.at("strehl_centre"), 1.0, 1e-12);
  EXPECT_NEAR(r.at("centroid_x"), 0.0, 1e-12);
  EXPECT_NEAR(r.at("centroid_y"), 0.0, 1e-12);
  EXPECT_NEAR(r.at("rms_wavefront"), 0.0, 1e-12);
  // I = sum_k w_k (s_k/s)^2 |E_k|^2 and each |E_k|^2's whole-plane energy is proportional to
  // (s/s_k)^2 (Parseval over the MFT's period), so the EE is the weighted mean of each
  // wavelength's own Airy EE, at R lambda_ref/D = R lambda_ref/lambda_k lambda_k/D:
  // EE(R) = sum_k w_k [1 - J0^2 - J1^2](pi R lambda_ref/lambda_k). Tolerance 8e-4: the
  // N = 64 rim (O(1/N), as in AiryMetrics). Weights
  // w_k (s_k/s)^2 or w_k (s/s_k)^2 in place of w_k err by 1.7e-3 to 2.1e-3 at 2.23 and 3
  // lambda/D, the 600 nm line alone by 3.4e-3 at 3.
  const std::vector<std::pair<double, double>> lines{{500, 0.25}, {600, 0.5}, {700, 0.25}};
  for (std::size_t k = 0; k < 3; ++k) {
    const double radius = s.metrics.ee_radii[k];
    double want = 0.0;
    for (const auto& [lambda, w] : lines) want += w * airy_ee(radius * 600.0 / lambda);
    EXPECT_NEAR(r.at("ee", 0, k), want, 8e-4) << "R = " << radius;
  }
  // 50 lambda_ref/D is past 1/sqrt(2) of the 500 and 600 nm lines' periods (64 lambda_k/D),
  // whose period cells it holds whole, and 0.67 of the 700 nm line's, whose cell it holds
  // but for the corners: not more than the whole plane's energy, and at least the weighted
  // Airy EE at the window's inscribed radius (8 lambda_ref/D: 0.9750) less the 3e-3 of the
  // sampled rim.
  double inscribed = 0.0;
  for (const auto& [lambda, w] : lines) inscribed += w * airy_ee(8.0 * 600.0 / lambda);
  EXPECT_GT(r.at("ee", 0, 3), inscribed - 3e-3);
  EXPECT_LE(r.at("ee", 0, 3), 1.0 + 1e-12);
}

// ---------------------------------------------------------------------------------------
// 7. The normalization scales the frames, not the metrics.

TEST(MetricsNormalization, NoneAndPeakAndSumGiveTheSameMetrics) {
  for (const Precision p : {Precision::single, Precision::double_}) {
    SCOPED_TRACE(std::string(to_string(p)));
    RunSpec s = metric_spec("cpu", p, 64, 2.0, {{{2, 1, 0.2}}, {{4, 0.1}, {7, 0.08}, {11, 0.05}}});
    s.crop = 48;
    s.frames.push_back(Aberration{{}, {{2, 0.3}, {6, -0.1}}});
    std::vector<Result> results;
    for (const Normalization norm :
         {Normalization::none, Normalization::peak, Normalization::sum}) {
      s.normalization = norm;
      results.push_back(run_metrics(s));
    }
    // The stored frames differ by a factor, rounded in the stored precision: each metric,
    // a sum over frame values times the factor's inverse, differs by a few ulps of that
    // precision per value: 1e-5 (single; 1e-6 would hold for the sums, the FWHM's linear
    // interpolation divides by a difference of two profile values) and 1e-12 (double).
    const double tol = p == Precision::single ? 1e-5 : 1e-12;
    for (std::size_t f = 0; f < 2; ++f)
      for (std::size_t i = 0; i < results[0].rows[f].size(); ++i)
        for (std::size_t n = 1; n < 3; ++n)
          EXPECT_NEAR(results[n].rows[f][i], results[0].rows[f][i],
                      tol * std::max(1.0, std::abs(results[0].rows[f][i])))
              << "frame " << f << " value " << i << " normalization " << n;
  }
}

// ---------------------------------------------------------------------------------------
// --store metrics keeps the same metrics and no frames.

TEST(MetricsStore, MetricsOnlyComputesTheSameValues) {
  RunSpec s = metric_spec("cpu", Precision::single, 64, 2.0, {{}, {{4, 0.1}, {8, 0.05}}});
  s.frames.push_back(Aberration{{}, {{3, 0.2}}});
  s.crop = 32;
  const Result both = run_metrics(s);
  s.metrics.store = Store::metrics;
  const Result only = run_metrics(s);
  EXPECT_TRUE(only.frames.empty());
  ASSERT_EQ(only.rows.size(), 2u);
  EXPECT_EQ(only.rows, both.rows);  // the same computation, frames kept or not
}

// ---------------------------------------------------------------------------------------
// Parseval's total: the EE over a disk holding the whole focal plane is 1 for any aperture.

TEST(MetricsEnergy, EeOverTheWholeFocalPlaneIsOneForEveryAperture) {
  for (int aperture = 0; aperture < 4; ++aperture)
    for (const Propagation prop : {Propagation::fft, Propagation::mft}) {
      SCOPED_TRACE("aperture " + std::to_string(aperture) +
                   (prop == Propagation::fft ? " fft" : " mft"));
      RunSpec s = metric_spec("cpu", Precision::double_, 64, 2.0,
                              {{{2, 1, 0.3}}, {{4, 0.2}, {8, -0.1}, {2, 0.4}}});
      if (aperture >= 1) s.obscuration = 0.3;
      if (aperture >= 2) s.aperture.spiders = Spiders{4, 0.03, 15.0};
      if (aperture == 3) {
        s.obscuration = 0.0;
        s.aperture.spiders.reset();
        s.aperture.hex_segments = HexSegments{2, 0.01, false};
      }
      s.optics.propagation = prop;
      s.metrics.metrics = parse_metrics("strehl,ee");
      // 1000 lambda/D: far past 1/sqrt(2) of the focal plane's period (N lambda/D), the disk
      // holds the whole period cell, whose energy is the total.
      s.metrics.ee_radii = {1000.0};
      const Result r = run_metrics(s);
      // The grid's sum of |E|^2 over L^2 sum A^2: 1 to double rounding of the transform and
      // of a 16384-term sum.
      EXPECT_NEAR(r.at("ee"), 1.0, 1e-12);
      // and an aberration-free frame of the same aperture has strehl 1.
      s.frames = {Aberration{}};
      EXPECT_NEAR(run_metrics(s).at("strehl"), 1.0, 1e-12);
    }
}

// ---------------------------------------------------------------------------------------
// rms_wavefront of Seidel terms over the clear disk, against the continuous integrals:
// rho^2 (l = 2, m = 0): W/sqrt(12); rho^4: W sqrt(1/5 - 1/9); rho cos(phi): W/2;
// rho^2 cos^2(phi): W sqrt(<x^4> - <x^2>^2)... written as x^2 with <x^2> = 1/4, <x^4> = 1/8.

TEST(MetricsRms, SeidelTermsHaveTheirContinuousRms) {
  struct Case {
    SeidelTerm term;
    double rms_per_wave;
  };
  const std::vector<Case> cases{{{2, 0, 1.0}, 1 / std::sqrt(12.0)},
                                {{4, 0, 1.0}, std::sqrt(1 / 5.0 - 1 / 9.0)},
                                {{1, 1, 1.0}, 0.5},
                                {{2, 2, 1.0}, std::sqrt(1 / 8.0 - 1 / 16.0)}};
  for (const auto& c : cases)
    for (const double w : {0.3, -2.0}) {
      SCOPED_TRACE("seidel " + std::to_string(c.term.l) + "," + std::to_string(c.term.m) +
                   " W = " + std::to_string(w));
      SeidelTerm t = c.term;
      t.waves = w;
      RunSpec s = metric_spec("cpu", Precision::single, 128, 2.0, {{t}, {}});
      s.metrics.metrics = parse_metrics("rms_wavefront");
      // Tolerance 1 %: the N = 128 disk's rim sampling, O(1/N) (measured below 0.5 %). The
      // RMS comes from the pupil in double whatever the frames' precision.
      EXPECT_NEAR(run_metrics(s).at("rms_wavefront"), std::abs(w) * c.rms_per_wave,
                  0.01 * std::abs(w) * c.rms_per_wave);
    }
}

// ---------------------------------------------------------------------------------------
// A batch computed in several backend calls gives each frame the row it gets alone.

TEST(MetricsBatch, ChunkedBatchRowsAreTheSingleFrameRows) {
  RunSpec s = metric_spec("cpu", Precision::double_, 32, 2.0);
  s.frames.clear();
  for (int f = 0; f < 5; ++f)
    s.frames.push_back(Aberration{{}, {{2, 0.1 * f}, {3, -0.05 * f}, {4, 0.02 * f}}});
  s.chunk_frames = 2;  // calls of 2, 2 and 1 frames
  const Result batch = run_metrics(s);
  ASSERT_EQ(batch.rows.size(), 5u);
  for (std::size_t f = 0; f < 5; ++f) {
    RunSpec one = s;
    one.frames = {s.frames[f]};
    one.chunk_frames = 0;
    const Result alone = run_metrics(one);
    // The same frame, batched or not: batching_tolerance of the frames (1e-14 relative L2)
    // carried through sums of them: 1e-12 relative to the value or 1.
    for (std::size_t i = 0; i < alone.rows[0].size(); ++i)
      EXPECT_NEAR(batch.rows[f][i], alone.rows[0][i],
                  1e-12 * std::max(1.0, std::abs(alone.rows[0][i])))
          << "frame " << f << " value " << i;
  }
  // and each row is its own frame's: frame f's centroid is 4c = 0.4 f lambda/D in x and
  // -0.2 f in y. Tolerance 0.1 lambda/D, a quarter of the step between frames: at N = 32 the
  // frame spans only +-16 lambda/D, and its cut Airy wings pull the centroid back by ~2.5 %
  // of the shift (measured 1.562 for 1.6).
  for (std::size_t f = 0; f < 5; ++f) {
    EXPECT_NEAR(batch.at("centroid_x", f), 0.4 * f, 0.1) << "frame " << f;
    EXPECT_NEAR(batch.at("centroid_y", f), -0.2 * f, 0.1) << "frame " << f;
  }
}

// ---------------------------------------------------------------------------------------
// The metrics describe the optics, before the detector stage (docs/metrics.md): jitter and
// photon noise change the stored frames, not the metrics.

TEST(MetricsDetector, JitterAndNoiseLeaveTheMetricsAlone) {
  RunSpec s = metric_spec("cpu", Precision::double_, 64, 2.0, {{}, {{4, 0.08}, {7, 0.05}}});
  s.pad_factor.reset();
  s.optics.pixel_scale = Angle{0.5, true};
  s.optics.oversample = 3;  // odd: the centre sub-pixel is on the axis
  s.crop = 33;
  s.metrics.metrics = parse_metrics("strehl,strehl_centre,centroid,fwhm,ee,rms_wavefront");
  const Result plain = run_metrics(s);
  RunSpec detected = s;
  detected.optics.jitter = Angle{0.4, true};
  detected.optics.photons = 1e5;
  detected.optics.read_noise = 3.0;
  detected.optics.noise_seed = 7;
  const Result noisy = run_metrics(detected);
  // The same backend computation: equal to double rounding (1e-12 relative to the value
  // or 1); the frames themselves differ (jitter widens them, noise roughens them).
  for (std::size_t i = 0; i < plain.rows[0].size(); ++i)
    EXPECT_NEAR(noisy.rows[0][i], plain.rows[0][i],
                1e-12 * std::max(1.0, std::abs(plain.rows[0][i])))
        << "value " << i;
  EXPECT_GT(relative_l2(noisy.frames[0], plain.frames[0]), 1e-3);
}

// ---------------------------------------------------------------------------------------
// 9. The GPU against the CPU, every metric column.

TEST(MetricsCuda, EqualsTheCpuForEveryMetric) {
  SKIP_WITHOUT_CUDA();
  for (const Precision p : {Precision::single, Precision::double_})
    for (int variant = 0; variant < 7; ++variant) {
      SCOPED_TRACE("variant " + std::to_string(variant) + " " + std::string(to_string(p)));
      RunSpec s = metric_spec("cpu", p, 64, 2.0, {{{2, 1, 0.2}}, {{4, 0.1}, {7, 0.08}}});
      s.frames.push_back(Aberration{});
      s.frames.push_back(Aberration{{}, {{2, 0.25}, {11, 0.05}}});
      s.obscuration = 0.2;
      if (variant == 1) {  // a crop, metrics only
        s.crop = 40;
        s.metrics.store = Store::metrics;
      }
      if (variant == 2) {  // the MFT at a pixel scale no FFT has (no mtf there)
        s.pad_factor.reset();
        s.optics.pixel_scale = Angle{0.37, true};
        s.crop = 45;
        s.metrics.metrics = parse_metrics("strehl,strehl_centre,centroid,fwhm,ee,rms_wavefront");
      }
      if (variant == 3 || variant == 4) {  // no mtf; with metrics only, |X|^2 kept alone
        s.metrics.metrics = parse_metrics("strehl,strehl_centre,centroid,fwhm,ee,rms_wavefront");
        s.metrics.store = variant == 3 ? Store::metrics : Store::both;
      }
      if (variant >= 5) {  // the MTF where M is not a power of two (the 2D plan): even, odd
        s.pad_factor.reset();
        s.padded_size = variant == 5 ? 134 : 131;
        s.metrics.store = variant == 5 ? Store::both : Store::metrics;
      }
      RunSpec gpu = s;
      gpu.backend = "cuda";
      const Result a = run_metrics(gpu), b = run_metrics(s);
      ASSERT_EQ(a.rows.size(), b.rows.size());
      // The frames agree to backend_tolerance (relative L2, 1e-5 single, 1e-12 double); a
      // metric is a weighted sum or ratio of them, and the GPU may sum in another order:
      // 1e-4 (single) and 1e-9 (double) relative to the value or 1.
      const double tol = p == Precision::single ? 1e-4 : 1e-9;
      for (std::size_t f = 0; f < a.rows.size(); ++f)
        for (const auto& c : a.columns)
          for (std::size_t k = 0; k < c.width; ++k) {
            const double want = b.at(c.name, f, k);
            EXPECT_NEAR(a.at(c.name, f, k), want, tol * std::max(1.0, std::abs(want)))
                << c.name << "[" << k << "] frame " << f;
          }
    }
}

}  // namespace
}  // namespace psfsim::test

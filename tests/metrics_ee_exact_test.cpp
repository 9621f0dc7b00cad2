// docs/metrics.md's `ee`: exact for the sampled pupil at any radius and pixel, on every
// compiled backend, against a brute-force reference written here from docs/spec.md §1 alone:
// the pupil field P = A exp(2 pi i W) on the N x N grid, its PSF I(t) = |sum P e^{-2 pi i t.x}|^2
// evaluated by a direct sum at Gauss-Legendre nodes over the disk, over the period's energy
// (1/dx)^2 sum |P|^2. The radii lie between the dark rings (0.7, 1, 1.7, 2.6 and 4.1 lambda/D),
// where a pixel rule errs most, and the pixels are whatever the case has (the FFT's, an MFT at
// 0.37 lambda/D, oversampled): the value must not depend on them.
//
// Tolerances, absolute: the reference converges to rounding (the integrand is a trigonometric
// polynomial, of a few oscillations over these disks, which 96 x 96 nodes resolve); double
// 1e-12 (rounding of the transforms and of sums over 10^4 to 10^5 grid points: measured
// 3e-15), single 1e-5, the requirement (float fields and transforms: measured 1.1e-7 on the
// CPU). The pixel rule this replaces erred by up to 5e-3 at these radii.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "h5_snapshot.hpp"
#include "psfsim/bessel_j1.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/encircled_energy_weights.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/metrics.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/spectrum.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

constexpr double pi = std::numbers::pi;
const std::vector<double> between_rings{0.7, 1.0, 1.7, 2.6, 4.1};

double tolerance(Precision p) { return p == Precision::single ? 1e-5 : 1e-12; }

// The sampled pupil of docs/spec.md §1 (centered or linspace grid, annulus, Seidel terms
// W = waves rho^l cos^m phi, phases times `phase_scale`), row-major N x N.
struct Pupil {
  int n = 0;
  double spacing = 0.0;    // dx, units of D
  std::vector<double> xi;  // x_i / 2: sample positions in units of D
  std::vector<std::complex<double>> field;
};

Pupil sampled_pupil(int n, Grid grid, double obscuration, const std::vector<SeidelTerm>& terms,
                    double phase_scale = 1.0) {
  Pupil p;
  p.n = n;
  for (int i = 0; i < n; ++i) {
    const double x = grid == Grid::centered ? (i - n / 2.0) * (2.0 / n)
                                            : (i == n - 1 ? 1.0 : -1.0 + i * (2.0 / (n - 1)));
    p.xi.push_back(x / 2.0);
  }
  p.spacing = grid == Grid::centered ? 1.0 / n : 1.0 / (n - 1);
  p.field.assign(static_cast<std::size_t>(n) * n, 0.0);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double x = 2.0 * p.xi[c], y = 2.0 * p.xi[r];
      const double rho = std::sqrt(x * x + y * y);
      if (rho > 1.0 || rho < obscuration) continue;
      double w = 0.0;
      for (const SeidelTerm& t : terms)
        w += t.waves * std::pow(rho, t.l) * std::pow(std::cos(std::atan2(y, x)), t.m);
      p.field[static_cast<std::size_t>(r) * n + c] = std::polar(1.0, 2.0 * pi * phase_scale * w);
    }
  return p;
}

struct Rule {
  std::vector<double> nodes, weights;
};
Rule gauss_legendre(int n) {
  Rule g{std::vector<double>(n), std::vector<double>(n)};
  for (int i = 0; i < n; ++i) {
    double x = std::cos(pi * (i + 0.75) / (n + 0.5)), d = 1.0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1.0, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      d = n * (x * p1 - p0) / (x * x - 1.0);
      const double step = p1 / d;
      x -= step;
      if (std::abs(step) < 1e-16) break;
    }
    g.nodes[i] = x;
    g.weights[i] = 2.0 / ((1.0 - x * x) * d * d);
  }
  return g;
}

// I at (tx, ty) for every tx of a row at ty: the row's sum over pupil rows first.
void row_intensities(const Pupil& p, double ty, const std::vector<double>& tx,
                     std::vector<double>& out) {
  std::vector<std::complex<double>> columns(static_cast<std::size_t>(p.n));
  for (int r = 0; r < p.n; ++r) {
    const std::complex<double> e = std::polar(1.0, -2.0 * pi * ty * p.xi[r]);
    for (int c = 0; c < p.n; ++c) columns[c] += p.field[static_cast<std::size_t>(r) * p.n + c] * e;
  }
  out.assign(tx.size(), 0.0);
  for (std::size_t k = 0; k < tx.size(); ++k) {
    std::complex<double> f = 0.0;
    for (int c = 0; c < p.n; ++c) f += columns[c] * std::polar(1.0, -2.0 * pi * tx[k] * p.xi[c]);
    out[k] = std::norm(f);
  }
}

double pupil_energy(const Pupil& p) {
  double e = 0.0;
  for (const auto& z : p.field) e += std::norm(z);
  return e;
}

// The integral of I over the disk of radius r (lambda/D) about the axis, over the period's
// energy: t_y = r sin(phi), t_x = r cos(phi) u, both smooth, Gauss-Legendre in phi and u.
double reference_ee(const Pupil& p, double r, int nodes = 96) {
  const Rule g = gauss_legendre(nodes);
  double sum = 0.0;
  std::vector<double> tx(static_cast<std::size_t>(nodes)), values;
  for (int j = 0; j < nodes; ++j) {
    const double phi = 0.5 * pi * g.nodes[j];
    const double half_width = r * std::cos(phi);
    for (int k = 0; k < nodes; ++k) tx[k] = half_width * g.nodes[k];
    row_intensities(p, r * std::sin(phi), tx, values);
    double row = 0.0;
    for (int k = 0; k < nodes; ++k) row += g.weights[k] * values[k];
    sum += 0.5 * pi * g.weights[j] * half_width * half_width * row;  // dt_y dt_x
  }
  return sum / (pupil_energy(p) / (p.spacing * p.spacing));
}

// The same over the disk's part in the period cell |t_x|, |t_y| <= 1/(2 dx) about the axis,
// for radii past half the period: t_y in three panels split where the disk's chord reaches
// the cell's side, t_x over the chord within the cell; smooth on each.
double reference_clipped_ee(const Pupil& p, double r, int nodes = 96) {
  const double h = 0.5 / p.spacing;
  if (r <= h) return reference_ee(p, r, nodes);
  const Rule g = gauss_legendre(nodes);
  const double reach = std::min(r, h);
  const double kink = r > h ? std::sqrt(std::max(0.0, r * r - h * h)) : 0.0;
  std::vector<std::pair<double, double>> panels;
  if (kink > 0.0 && kink < reach) panels = {{-reach, -kink}, {-kink, kink}, {kink, reach}};
  else panels = {{-reach, reach}};
  double sum = 0.0;
  std::vector<double> tx(static_cast<std::size_t>(nodes)), values;
  for (const auto& [lo, hi] : panels)
    for (int j = 0; j < nodes; ++j) {
      const double ty = 0.5 * (lo + hi) + 0.5 * (hi - lo) * g.nodes[j];
      const double chord = std::min(std::sqrt(std::max(0.0, r * r - ty * ty)), h);
      for (int k = 0; k < nodes; ++k) tx[k] = chord * g.nodes[k];
      row_intensities(p, ty, tx, values);
      double row = 0.0;
      for (int k = 0; k < nodes; ++k) row += g.weights[k] * values[k];
      sum += 0.5 * (hi - lo) * g.weights[j] * chord * row;
    }
  return sum / (pupil_energy(p) / (p.spacing * p.spacing));
}

RunSpec ee_spec(const std::string& backend, Precision precision, int n,
                std::vector<SeidelTerm> terms, std::vector<double> radii = between_rings) {
  RunSpec s;
  s.backend = backend;
  s.precision = precision;
  s.samples = n;
  s.normalization = Normalization::none;
  s.wisdom = "none";
  s.fft_effort = FftEffort::estimate;
  s.frames = {Aberration{std::move(terms), {}}};
  s.metrics.metrics = parse_metrics("strehl,ee");
  s.metrics.ee_radii = std::move(radii);
  s.metrics.store = Store::metrics;
  return s;
}

std::vector<std::vector<double>> run_ee(const RunSpec& spec) {
  PsfRun run(spec, builtin_backends());
  FrameCollector collected;
  (void)run.execute(collected);
  const std::vector<MetricColumn> columns = metric_columns(spec.metrics);
  std::size_t offset = 0;
  for (const auto& c : columns)
    if (c.metric == Metric::ee) offset = c.offset;
  std::vector<std::vector<double>> rows;
  for (std::size_t f = 0; f < collected.frames(); ++f) {
    const auto m = collected.metrics(f);
    rows.emplace_back(m.begin() + static_cast<long>(offset),
                      m.begin() + static_cast<long>(offset + spec.metrics.ee_radii.size()));
  }
  return rows;
}

class ExactEe : public ::testing::TestWithParam<std::tuple<std::string, Precision>> {
 protected:
  void SetUp() override {
    const std::string why = skip_reason(backend());
    if (!why.empty()) GTEST_SKIP() << backend() << " backend not usable here: " << why;
  }
  [[nodiscard]] const std::string& backend() const { return std::get<0>(GetParam()); }
  [[nodiscard]] Precision precision() const { return std::get<1>(GetParam()); }

  // Each frame's EE at each radius against the reference of its pupil.
  void expect_exact(const RunSpec& spec, const std::vector<Pupil>& pupils) {
    const auto rows = run_ee(spec);
    ASSERT_EQ(rows.size(), pupils.size());
    for (std::size_t f = 0; f < rows.size(); ++f)
      for (std::size_t k = 0; k < spec.metrics.ee_radii.size(); ++k) {
        const double r = spec.metrics.ee_radii[k];
        EXPECT_NEAR(rows[f][k], reference_ee(pupils[f], r), tolerance(precision()))
            << "frame " << f << ", r = " << r << " lambda/D";
      }
  }
};

const std::vector<SeidelTerm> aberrated{{2, 0, 0.15}, {3, 1, 0.1}, {2, 2, -0.08}};

// The FFT: the crop window (the EE transforms the pupil once more), the whole plane (every
// other row and column of M = 4N is the grid), a small crop at M = 2N (the plane's extra rows
// are cheaper than that transform), M < 2N - 1 (no plane is a full period), and odd M, whose
// shift modulation moves the axis off the extra transform's grid (removed sample by sample:
// M = 97) or leaves the plane's axis at (M - 1)/2 (M = 105, the plane itself).
TEST_P(ExactEe, FftAtEveryCropAndPadding) {
  struct Layout {
    int padded;
    int crop;  // 0: the whole plane
  };
  for (const Layout l : {Layout{192, 64}, Layout{192, 0}, Layout{96, 24}, Layout{72, 0},
                         Layout{97, 41}, Layout{105, 0}}) {
    SCOPED_TRACE("M " + std::to_string(l.padded) + ", crop " + std::to_string(l.crop));
    RunSpec s = ee_spec(backend(), precision(), 48, aberrated);
    s.padded_size = l.padded;
    if (l.crop > 0) s.crop = l.crop;
    s.optics.propagation = Propagation::fft;
    expect_exact(s, {sampled_pupil(48, Grid::centered, 0.0, aberrated)});
  }
}

// The MFT at a pixel scale no FFT has, an odd window, oversampled sub-pixels, an annulus.
TEST_P(ExactEe, MftAtAnOddPixelScaleWithAnObscuredAberratedPupil) {
  RunSpec s = ee_spec(backend(), precision(), 64, aberrated);
  s.optics.pixel_scale = Angle{0.37, true};
  s.optics.propagation = Propagation::mft;
  s.crop = 31;
  s.optics.oversample = 3;
  s.obscuration = 0.3;
  expect_exact(s, {sampled_pupil(64, Grid::centered, 0.3, aberrated)});
}

// Several frames per call (the CPU's workers, the GPU's chunks): each frame its own values.
TEST_P(ExactEe, EveryFrameOfABatchItsOwn) {
  const std::vector<std::vector<SeidelTerm>> frames{{}, aberrated, {{4, 0, 0.2}, {1, 1, 0.7}}};
  for (const Propagation prop : {Propagation::fft, Propagation::mft}) {
    SCOPED_TRACE(prop == Propagation::fft ? "fft" : "mft");
    RunSpec s = ee_spec(backend(), precision(), 32, {});
    s.pad_factor = 2.0;
    s.crop = 32;
    s.optics.propagation = prop;
    s.frames.clear();
    std::vector<Pupil> pupils;
    for (const auto& t : frames) {
      s.frames.push_back(Aberration{t, {}});
      pupils.push_back(sampled_pupil(32, Grid::centered, 0.2, t));
    }
    s.obscuration = 0.2;
    expect_exact(s, pupils);
  }
}

// numpy.linspace's grid: dx = 1/(N - 1).
TEST_P(ExactEe, LinspaceGrid) {
  RunSpec s = ee_spec(backend(), precision(), 40, aberrated);
  s.grid = Grid::linspace;
  s.pad_factor = 3.0;
  s.crop = 40;
  expect_exact(s, {sampled_pupil(40, Grid::linspace, 0.0, aberrated)});
}

// A spectrum: each wavelength's field has the phase scaled by lambda_ref/lambda_k and the
// radius in its lambda_k/D is R lambda_ref/lambda_k; the EE is the spectral weights' mean.
TEST_P(ExactEe, SpectrumIsTheWeightedMeanOfEachWavelengthsEe) {
  RunSpec s = ee_spec(backend(), precision(), 48, aberrated);
  s.optics.pixel_scale = Angle{0.3, true};
  s.optics.wavelengths_text = "500nm:1,600nm:2,700nm:1";
  s.optics.spectrum = parse_wavelengths(s.optics.wavelengths_text, "--wavelengths");
  s.crop = 41;
  const auto rows = run_ee(s);
  const std::vector<std::pair<double, double>> lines{{500, 0.25}, {600, 0.5}, {700, 0.25}};
  for (std::size_t k = 0; k < between_rings.size(); ++k) {
    double want = 0.0;
    for (const auto& [lambda, w] : lines)
      want += w * reference_ee(sampled_pupil(48, Grid::centered, 0.0, aberrated, 600.0 / lambda),
                               between_rings[k] * 600.0 / lambda);
    EXPECT_NEAR(rows[0][k], want, tolerance(precision())) << "R = " << between_rings[k];
  }
}

// Past half the period (N/2 lambda/D) the disk is clipped to the period cell about the axis,
// and from 1/sqrt(2) of the period on it holds the whole cell: EE = 1.
TEST_P(ExactEe, RadiiPastHalfThePeriodCountTheCellAlone) {
  const int n = 16;
  const std::vector<double> radii{7.5, 9.0, 10.5, 11.5, 12.0, 40.0};  // period 16 lambda/D
  RunSpec s = ee_spec(backend(), precision(), n, aberrated, radii);
  s.pad_factor = 2.0;
  const auto rows = run_ee(s);
  const Pupil p = sampled_pupil(n, Grid::centered, 0.0, aberrated);
  for (std::size_t k = 0; k < radii.size(); ++k)
    EXPECT_NEAR(rows[0][k], reference_clipped_ee(p, radii[k]), tolerance(precision()))
        << "r = " << radii[k];
  EXPECT_NEAR(rows[0][5], 1.0, tolerance(precision()));
}

INSTANTIATE_TEST_SUITE_P(Backends, ExactEe,
                         ::testing::Combine(::testing::ValuesIn(compiled_backends()),
                                            ::testing::Values(Precision::single,
                                                              Precision::double_)),
                         [](const auto& info) { return backend_and_precision(info); });

// The issue's command line, whose pixel rule gave 0.821411: the exact value of its sampled
// pupil (computed here, by the brute force above) to 1e-5, and Airy's 0.826431 within the
// N = 256 rim's 1e-4.
TEST(ExactEeCli, TheIssuesCommandGivesTheSampledPupilsExactValue) {
  const Pupil p = sampled_pupil(256, Grid::centered, 0.0, {});
  const double want = reference_ee(p, 1.0);
  const double airy =
      1.0 - std::pow(std::cyl_bessel_j(0.0, pi), 2) - std::pow(std::cyl_bessel_j(1.0, pi), 2);
  EXPECT_NEAR(want, airy, 1e-4);
  const std::string dir = fresh_dir("ee-exact-cli");
  for (const char* propagation : {"auto", "fft"}) {
    SCOPED_TRACE(propagation);
    const std::string out = dir + "/x-" + propagation + ".h5";
    const auto r = run_psfsim(std::string("run --backend cpu --quiet --samples 256 --pad-factor 4 "
                                          "--crop 161 --normalize none --metrics ee --ee-radii 1 "
                                          "--store metrics --propagation ") +
                              propagation + " -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    const H5Snapshot s = read_h5(out);
    EXPECT_NEAR(s.datasets.at("/metrics/ee").at(0), want, 1e-5);
  }
}

// ---------------------------------------------------------------------------------------
// The model's parts: J1 against the standard library's, the kernel's two forms against each
// other, and the tables against their definition by direct cosine sums.

TEST(EncircledEnergyWeights, BesselJ1MatchesTheStandardLibrarys) {
  for (double x = 0.0; x < 60.0; x += 0.0137)
    EXPECT_NEAR(bessel_j1(x), std::cyl_bessel_j(1.0, x), 2e-14) << x;
  for (double x = 60.0; x < 5000.0; x += 3.71)
    EXPECT_NEAR(bessel_j1(x), std::cyl_bessel_j(1.0, x), 1e-12) << x;  // the library's own error
  EXPECT_EQ(bessel_j1(0.0), 0.0);
  EXPECT_NEAR(bessel_j1(-2.0), -std::cyl_bessel_j(1.0, 2.0), 1e-15);
}

TEST(EncircledEnergyWeights, TablesAreTheKernelsCosineSums) {
  // A small pupil on grids of odd and even length, radii inside and past half the period.
  PsfPlan plan;
  plan.samples = 6;
  plan.padded = 12;
  plan.metrics.ee_radii = {0.9, 2.2, 3.4, 5.0};
  plan.precision = Precision::double_;
  plan = with_sampled_pupil(plan);
  for (const int period : {11, 12, 20}) {
    const EncircledEnergyWeights w = encircled_energy_weights(plan, period, 1);
    ASSERT_EQ(w.half, period / 2 + 1);
    for (int radius = 0; radius < w.radii; ++radius) {
      const double rho = plan.metrics.ee_radii[radius] * pupil_spacing(plan.sampled_pupil());
      const std::vector<double> k = encircled_energy_kernel(6, rho);
      for (int fy = 0; fy < w.half; ++fy)
        for (int fx = 0; fx < w.half; ++fx) {
          double want = 0.0;
          for (int my = -5; my <= 5; ++my)
            for (int mx = -5; mx <= 5; ++mx)
              want += k[std::abs(my) * 6 + std::abs(mx)] *
                      std::cos(2 * pi * (fy * my + fx * mx) / period);
          EXPECT_NEAR(w.table(0, radius)[fy * w.half + fx], want, 1e-13)
              << "L " << period << " rho " << rho << " f " << fy << "," << fx;
        }
    }
  }
}

TEST(EncircledEnergyWeights, DiskKernelIsItsTransform) {
  // Within half the period the kernel is rho J1(2 pi rho |m|)/|m|; the clipped form's
  // quadrature (taken past 1/2) must agree with it as rho reaches 1/2 from above, and past
  // 1/sqrt(2) the kernel is the cell's: 1 at m = 0, else 0.
  const std::vector<double> below = encircled_energy_kernel(12, 0.5);
  const std::vector<double> above = encircled_energy_kernel(12, 0.5 + 1e-12);
  for (std::size_t i = 0; i < below.size(); ++i) EXPECT_NEAR(above[i], below[i], 1e-10) << i;
  EXPECT_NEAR(below[0], pi / 4, 1e-15);
  EXPECT_NEAR(below[5], 0.5 * bessel_j1(pi * 5) / 5, 1e-15);
  const std::vector<double> cell = encircled_energy_kernel(12, 0.71);
  EXPECT_EQ(cell[0], 1.0);
  for (std::size_t i = 1; i < cell.size(); ++i) EXPECT_EQ(cell[i], 0.0);
}

}  // namespace
}  // namespace psfsim::test

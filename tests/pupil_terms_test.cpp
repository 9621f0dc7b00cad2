// --source-offset and --defocus-distance (docs/physical-optics.md): phase terms every frame
// shares, added to the sampled pupil's OPD, end to end through PsfRun on every compiled backend.
// References are written here: the shift theorem (a tilted PSF is the on-axis one moved), a
// direct DFT of the exact defocus OPD, its binomial series as Seidel terms, and the Zernike
// defocus of the paraxial limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

#include "psfsim/errors.hpp"
#include "psfsim/run_plan.hpp"
#include "psfsim/units.hpp"
#include "h5_snapshot.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

constexpr double pi = std::numbers::pi;
constexpr double micron = 1e-6;

RunSpec plain_spec(const std::string& backend, Precision precision, int n) {
  RunSpec s;
  s.backend = backend;
  s.precision = precision;
  s.samples = n;
  s.wisdom = "none";
  s.fft_effort = FftEffort::estimate;
  s.normalization = Normalization::none;
  return s;
}

std::vector<double> frame_of(const RunSpec& spec) { return run_spec_frames(spec).at(0); }

struct Position {
  double x = 0.0;  // lambda/D towards +x (columns)
  double y = 0.0;  // towards +y (rows)
};

// The centroid of a frame that spans exactly one period of the focal plane (K pixels of s
// with K s = N lambda/D): the phase of the intensity's first harmonic along each axis, the
// circular mean of the positions. A shifted PSF's harmonic turns by exactly the shift (the
// shift theorem), with no window or wings to bias it. From the axis, pixel floor(K/2).
Position periodic_centroid(const std::vector<double>& frame, int k, double s) {
  std::complex<double> hx, hy;
  for (int r = 0; r < k; ++r)
    for (int c = 0; c < k; ++c) {
      const double v = frame[static_cast<std::size_t>(r) * k + c];
      hx += v * std::polar(1.0, 2 * pi * c / k);
      hy += v * std::polar(1.0, 2 * pi * r / k);
    }
  const auto from_axis = [&](std::complex<double> h) {
    double pixels = std::arg(h) / (2 * pi) * k - k / 2;
    pixels -= k * std::round(pixels / k);
    return pixels * s;
  };
  return {from_axis(hx), from_axis(hy)};
}

// The plain intensity-weighted centroid over a (2h + 1)^2 window about the pixel nearest
// `expected` (indices wrapped: the frame is one period), from the axis pixel floor(K/2).
Position window_centroid(const std::vector<double>& frame, int k, double s, Position expected,
                         int h) {
  const int a = k / 2;
  const int pc = a + static_cast<int>(std::lround(expected.x / s));
  const int pr = a + static_cast<int>(std::lround(expected.y / s));
  double sum = 0.0, sx = 0.0, sy = 0.0;
  for (int dr = -h; dr <= h; ++dr)
    for (int dc = -h; dc <= h; ++dc) {
      const int r = ((pr + dr) % k + k) % k, c = ((pc + dc) % k + k) % k;
      const double v = frame[static_cast<std::size_t>(r) * k + c];
      sum += v;
      sx += v * (pc + dc - a);
      sy += v * (pr + dr - a);
    }
  return {sx / sum * s, sy / sum * s};
}

// `still` moved by (dx, dy) pixels against `moved`, over the pixels both hold at least
// `margin` pixels from their edges.
double shifted_l2(const std::vector<double>& moved, const std::vector<double>& still, int k, int dx,
                  int dy, int margin = 0) {
  const auto inside = [&](int i) { return i >= margin && i < k - margin; };
  double diff = 0.0, norm = 0.0;
  for (int r = 0; r < k; ++r)
    for (int c = 0; c < k; ++c) {
      const int r0 = r - dy, c0 = c - dx;
      if (!inside(r) || !inside(c) || !inside(r0) || !inside(c0)) continue;
      const double ref = still[static_cast<std::size_t>(r0) * k + c0];
      const double d = moved[static_cast<std::size_t>(r) * k + c] - ref;
      diff += d * d;
      norm += ref * ref;
    }
  return std::sqrt(diff / norm);
}

// Position tolerances: the periodic centroid is exact to the frames' rounding; the window's
// is biased by the Airy wings it cuts where the PSF is not centred on a pixel (about 6e-4
// lambda/D for a 101-pixel window of lambda/8 pixels, 0.2 pixel off centre).
double periodic_tolerance(Precision p) { return p == Precision::single ? 1e-4 : 1e-9; }
constexpr double window_tolerance = 1e-3;

// The direct DFT of docs/spec.md §1's centered grid and circular aperture with the phase
// `waves(x, y)`, at pixel q: theta_q = (q - centre) s lambda/D.
template <typename Phase>
std::vector<double> direct_psf(int n, int k, double s, Phase waves) {
  std::vector<std::complex<double>> pupil(static_cast<std::size_t>(n) * n);
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i - n / 2.0) * (2.0 / n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      if (std::hypot(x[c], x[r]) <= 1.0)
        pupil[static_cast<std::size_t>(r) * n + c] = std::polar(1.0, 2 * pi * waves(x[c], x[r]));
  std::vector<double> out(static_cast<std::size_t>(k) * k);
  const double centre = k / 2;
  for (int q = 0; q < k; ++q)
    for (int p = 0; p < k; ++p) {
      std::complex<double> e;
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
          const std::complex<double> v = pupil[static_cast<std::size_t>(r) * n + c];
          if (v != 0.0)
            e +=
                v * std::polar(
                        1.0, -2 * pi * ((p - centre) * s * x[c] / 2 + (q - centre) * s * x[r] / 2));
        }
      out[static_cast<std::size_t>(q) * k + p] = std::norm(e);
    }
  return out;
}

// sqrt(1 - a^2) - 1 = sum_{k >= 1} b_k a^(2k): Seidel terms S_{2k,0} of an OPD DZ (in the
// unit of `dz`) with a = rho / (2F), to radial power 2 * terms.
std::vector<SeidelTerm> defocus_series(double dz, double fnumber, int terms) {
  std::vector<SeidelTerm> out;
  double b = 1.0;  // binom(1/2, k) (-1)^k, from b_0 = 1
  for (int k = 1; k <= terms; ++k) {
    b *= -(0.5 - (k - 1)) / k;
    out.push_back({2 * k, 0, dz * b / std::pow(2.0 * fnumber, 2 * k)});
  }
  return out;
}

class PupilTerms : public ::testing::TestWithParam<std::tuple<std::string, Precision>> {
 protected:
  void SetUp() override {
    if (const auto why = skip_reason(backend()); !why.empty()) GTEST_SKIP() << why;
  }
  [[nodiscard]] std::string backend() const { return std::get<0>(GetParam()); }
  [[nodiscard]] Precision precision() const { return std::get<1>(GetParam()); }
};

// N = 64, M = 512: pixels of lambda/8 and a 512-pixel frame that is the whole focal plane
// (64 lambda/D, one period), for the FFT and for the MFT at the same pixel scale. +X goes to
// increasing columns and +Y to increasing rows (docs/conventions.md).
TEST_P(PupilTerms, SourceOffsetMovesTheCentroidByTheOffset) {
  for (const Propagation propagation : {Propagation::fft, Propagation::mft})
    for (const Position offset : {Position{3, -2}, Position{2.3, -1.7}, Position{-0.37, 0.11}}) {
      SCOPED_TRACE(std::string(to_string(propagation)) + " " + std::to_string(offset.x) + "," +
                   std::to_string(offset.y));
      RunSpec spec = plain_spec(backend(), precision(), 64);
      spec.padded_size = 512;
      spec.optics.propagation = propagation;
      spec.optics.source_offset = {{Angle{offset.x, true}, Angle{offset.y, true}}};
      const std::vector<double> frame = frame_of(spec);
      const Position periodic = periodic_centroid(frame, 512, 0.125);
      EXPECT_NEAR(periodic.x, offset.x, periodic_tolerance(precision()));
      EXPECT_NEAR(periodic.y, offset.y, periodic_tolerance(precision()));
      const Position window = window_centroid(frame, 512, 0.125, offset, 50);
      EXPECT_NEAR(window.x, offset.x, window_tolerance);
      EXPECT_NEAR(window.y, offset.y, window_tolerance);
    }
}

// In mas, with --diameter 1m and --wavelength 1um: 500 mas is 500/206.26... lambda/D.
TEST_P(PupilTerms, SourceOffsetInMasMovesThePsfByThatAngle) {
  const double mas = pi / (180.0 * 3600.0 * 1000.0);
  for (const Propagation propagation : {Propagation::fft, Propagation::mft}) {
    SCOPED_TRACE(std::string(to_string(propagation)));
    RunSpec spec = plain_spec(backend(), precision(), 64);
    spec.optics.wavelength_m = 1 * micron;
    spec.optics.diameter_m = 1.0;
    spec.optics.pixel_scale = Angle{0.125, true};
    spec.crop = 512;
    spec.optics.propagation = propagation;
    spec.optics.source_offset = {
        {parse_angle("500mas", "--source-offset", true), parse_angle("-300mas", "", true)}};
    const Position expected{500 * mas * 1.0 / micron, -300 * mas * 1.0 / micron};
    const std::vector<double> frame = frame_of(spec);
    const Position periodic = periodic_centroid(frame, 512, 0.125);
    EXPECT_NEAR(periodic.x, expected.x, periodic_tolerance(precision()));
    EXPECT_NEAR(periodic.y, expected.y, periodic_tolerance(precision()));
    const Position window = window_centroid(frame, 512, 0.125, expected, 50);
    EXPECT_NEAR(window.x, expected.x, window_tolerance);
    EXPECT_NEAR(window.y, expected.y, window_tolerance);
  }
}

// The offset is an angle: over 800 to 1200 nm every wavelength's PSF moves by the same angle,
// so the polychromatic frame is the on-axis one moved by the offset, here (8, -5) pixels of
// lambda_ref/(4D), and its centroid moves by the offset. A tilt in waves at each wavelength
// (unscaled) would move each wavelength by a different angle and blur the shift.
TEST_P(PupilTerms, SourceOffsetKeepsItsAngleOverASpectrum) {
  RunSpec still = plain_spec(backend(), precision(), 32);
  still.optics.wavelength_m = 1 * micron;
  still.optics.diameter_m = 1.0;
  still.optics.spectrum = band_spectrum("800nm-1200nm,3", "--band");
  still.optics.band_text = "800nm-1200nm,3";
  still.optics.pixel_scale = Angle{0.25, true};
  still.crop = 96;
  RunSpec moved = still;
  // 2 and -1.25 lambda_ref/D as angles: (8, -5) pixels of 0.25 lambda_ref/D.
  moved.optics.source_offset = {{Angle{2 * micron, false}, Angle{-1.25 * micron, false}}};
  const std::vector<double> a = frame_of(still), b = frame_of(moved);
  EXPECT_LE(shifted_l2(b, a, 96, 8, -5), reference_tolerance(precision()));
  const Position on_axis = window_centroid(a, 96, 0.25, {0, 0}, 30);
  const Position off_axis = window_centroid(b, 96, 0.25, {2, -1.25}, 30);
  EXPECT_NEAR(off_axis.x - on_axis.x, 2.0, window_tolerance);
  EXPECT_NEAR(off_axis.y - on_axis.y, -1.25, window_tolerance);
}

// The Strehl reference (the aberration-free frame, batch index -1) has no offset: a tilted
// perfect PSF keeps its peak of 1 under `peak`, and under the detector stage (jitter, whose
// peak normalization takes the reference's centre) the tilted frame is the on-axis one moved.
TEST_P(PupilTerms, SourceOffsetLeavesTheStrehlRatioAlone) {
  RunSpec still = plain_spec(backend(), precision(), 32);
  still.padded_size = 128;
  still.crop = 64;
  still.normalization = Normalization::peak;
  RunSpec moved = still;
  moved.optics.source_offset = {{Angle{2, true}, Angle{-1, true}}};  // (8, -4) pixels
  const std::vector<double> b = frame_of(moved);
  EXPECT_NEAR(*std::max_element(b.begin(), b.end()), 1.0, 1e-5);
  EXPECT_LT(b[32 * 64 + 32], 0.01);  // the axis is dark
  still.optics.jitter = moved.optics.jitter = Angle{0.3, true};
  const std::vector<double> aj = frame_of(still), bj = frame_of(moved);
  EXPECT_NEAR(*std::max_element(bj.begin(), bj.end()), *std::max_element(aj.begin(), aj.end()),
              1e-5);
  // Away from the edges, where each frame loses what the kernel (5 pixels) moves past them.
  EXPECT_LE(shifted_l2(bj, aj, 64, 8, -4, 5), reference_tolerance(precision()));
}

// The exact OPD DZ (sqrt(1 - (rho/2F)^2) - 1) against a direct DFT written from the formula,
// in the paraxial regime (F = 20) and far from it (F = 1, 2), FFT and MFT.
TEST_P(PupilTerms, DefocusDistanceIsTheAngularSpectrumOpd) {
  const double lambda = 1 * micron;
  for (const double f : {1.0, 2.0, 20.0})
    for (const Propagation propagation : {Propagation::fft, Propagation::mft}) {
      SCOPED_TRACE("F = " + std::to_string(f) + " " + std::string(to_string(propagation)));
      const double dz = 8 * f * f * 0.5 * lambda;  // W020 = DZ / (8 F^2) = 0.5 waves
      RunSpec spec = plain_spec(backend(), precision(), 32);
      spec.padded_size = 128;
      spec.crop = 32;
      spec.optics.wavelength_m = lambda;
      spec.optics.fnumber = f;
      spec.optics.defocus_distance_m = dz;
      spec.optics.propagation = propagation;
      const auto exact = [&](double x, double y) {
        const double a = std::hypot(x, y) / (2 * f);
        return dz / lambda * (std::sqrt(1 - a * a) - 1);
      };
      EXPECT_LE(relative_l2(frame_of(spec), direct_psf(32, 32, 0.25, exact)),
                reference_tolerance(precision()));
    }
}

// The paraxial limit: DZ is a defocus W020 = -DZ/(8 F^2) (the detector beyond focus is a
// focus in front of it), Noll Z4 = W020 / (2 sqrt 3). The frames differ by the exact term's
// spherical part, W040 = W020 / (16 F^2), so the difference falls as 1/F^2: 2.4e-4 at
// F = 20, 0.025 at F = 2 (NumPy, N = 64, M = 256, W020 = 0.5 waves). With astigmatism beside
// it the sign shows: the opposite defocus turns the astigmatic PSF by 90 degrees.
TEST_P(PupilTerms, DefocusDistanceIsZernikeDefocusInTheParaxialRegime) {
  const double lambda = 1 * micron, w020 = 0.5;
  const double z4 = -w020 / (2 * std::sqrt(3.0));
  const auto defocused = [&](double f, std::vector<ZernikeTerm> terms) {
    RunSpec spec = plain_spec(backend(), precision(), 64);
    spec.padded_size = 256;
    spec.optics.wavelength_m = lambda;
    spec.optics.fnumber = f;
    spec.optics.defocus_distance_m = 8 * f * f * w020 * lambda;
    spec.frames = {Aberration{{}, std::move(terms)}};
    return frame_of(spec);
  };
  const auto zernike = [&](std::vector<ZernikeTerm> terms) {
    RunSpec spec = plain_spec(backend(), precision(), 64);
    spec.padded_size = 256;
    spec.frames = {Aberration{{}, std::move(terms)}};
    return frame_of(spec);
  };
  const std::vector<double> focus_z4 = zernike({{4, z4}});
  std::vector<double> differences;
  for (const double f : {20.0, 10.0, 5.0, 2.0})
    differences.push_back(relative_l2(defocused(f, {}), focus_z4));
  EXPECT_LT(differences[0], 3e-4);     // F = 20: 2.44e-4
  EXPECT_GT(differences[3], 2e-2);     // F = 2: 0.0249
  for (std::size_t i = 1; i < 3; ++i)  // 1/F^2: x4 from F = 20 to 10 and from 10 to 5
    EXPECT_NEAR(differences[i] / differences[i - 1], 4.0, 0.1);
  // The sign, with astigmatism: DZ > 0 is Z4 < 0.
  const std::vector<double> astigmatic = defocused(20, {{6, 0.2}});
  EXPECT_LT(relative_l2(astigmatic, zernike({{6, 0.2}, {4, z4}})), 3e-4);
  EXPECT_GT(relative_l2(astigmatic, zernike({{6, 0.2}, {4, -z4}})), 0.5);
}

// The defocus is a length, achromatic as an OPD: over a spectrum it equals its binomial series
// given as Seidel terms in nm (--aberration-units nm), which each wavelength sees as OPD/lambda_k.
TEST_P(PupilTerms, DefocusDistanceIsAnOpdOverASpectrum) {
  const double f = 5, dz = 0.2e-3;
  RunSpec spec = plain_spec(backend(), precision(), 32);
  spec.optics.wavelength_m = 1 * micron;
  spec.optics.spectrum = band_spectrum("800nm-1200nm,3", "--band");
  spec.optics.band_text = "800nm-1200nm,3";
  spec.optics.fnumber = f;
  spec.optics.pixel_pitch_m = 1.5 * micron;  // 0.3 lambda_ref/D per pixel
  spec.crop = 48;
  RunSpec series = spec;
  spec.optics.defocus_distance_m = dz;
  series.optics.aberration_units = AberrationUnits::nm;
  series.frames = {Aberration{defocus_series(dz * 1e9, f, 8), {}}};
  EXPECT_LE(relative_l2(frame_of(spec), frame_of(series)), reference_tolerance(precision()));
}

INSTANTIATE_TEST_SUITE_P(All, PupilTerms,
                         ::testing::Combine(::testing::ValuesIn(compiled_backends()),
                                            ::testing::Values(Precision::single,
                                                              Precision::double_)),
                         [](const auto& info) { return backend_and_precision(info); });

std::string refusal(const RunSpec& spec) {
  try {
    validate(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

RunSpec small_spec() {
  RunSpec s;
  s.samples = 32;
  s.backend = "cpu";
  return s;
}

// The focal plane of 32 centered samples repeats every 32 lambda/D: the offset and the
// defocused spot's radius |DZ|/(2 lambda F^2 sqrt(1 - 1/(4F^2))) must stay within 16.
TEST(PupilTermsRefused, BeyondTheSampledFocalPlane) {
  RunSpec s = small_spec();
  s.optics.source_offset = {{Angle{15.9, true}, Angle{-3, true}}};
  EXPECT_EQ(refusal(s), "");
  s.optics.source_offset = {{Angle{1, true}, Angle{-16, true}}};
  EXPECT_NE(refusal(s).find("--source-offset 1lod,-16lod: the PSF would reach 16 lambda/D"),
            std::string::npos)
      << refusal(s);

  RunSpec d = small_spec();
  d.optics.wavelength_m = 1 * micron;
  d.optics.fnumber = 10;
  const double bound = 16 * 2 * micron * 100 * std::sqrt(1 - 1 / 400.0);
  d.optics.defocus_distance_m = -0.99 * bound;
  EXPECT_EQ(refusal(d), "");
  d.optics.defocus_distance_m = 1.01 * bound;
  EXPECT_NE(refusal(d).find("--defocus-distance"), std::string::npos) << refusal(d);
  EXPECT_NE(refusal(d).find("the defocused spot's radius is 16 lambda/D"), std::string::npos)
      << refusal(d);
  // Both together: their reaches add.
  d.optics.defocus_distance_m = 0.5 * bound;
  d.optics.source_offset = {{Angle{8.5, true}, Angle{0, true}}};
  EXPECT_NE(refusal(d).find("--source-offset 8.5lod,0lod and --defocus-distance"),
            std::string::npos)
      << refusal(d);
  // Over a spectrum the shortest wavelength, whose lambda/D is the smallest, decides.
  d.optics.source_offset.reset();
  d.optics.defocus_distance_m = 0.9 * bound;
  d.optics.spectrum = band_spectrum("800nm-1200nm,3", "--band");
  d.optics.band_text = "800nm-1200nm,3";
  d.optics.pixel_pitch_m = 5 * micron;
  EXPECT_NE(refusal(d).find("at 800nm"), std::string::npos) << refusal(d);
}

TEST(PupilTermsRefused, WhatTheyNeed) {
  RunSpec s = small_spec();
  s.optics.source_offset = {{Angle{1e-7, false}, Angle{0, true}}};
  EXPECT_NE(refusal(s).find("an angle needs --diameter and a wavelength; or give it in lod"),
            std::string::npos)
      << refusal(s);
  RunSpec d = small_spec();
  d.optics.defocus_distance_m = 1e-4;
  EXPECT_NE(refusal(d).find("--defocus-distance 100um: needs --fnumber"), std::string::npos)
      << refusal(d);
  d.optics.fnumber = 10;
  EXPECT_NE(refusal(d).find("needs --wavelength, --wavelengths or --band"), std::string::npos)
      << refusal(d);
  d.optics.wavelength_m = 1 * micron;
  EXPECT_EQ(refusal(d), "");  // --fnumber without --pixel-pitch: the defocus's F-number
  d.optics.fnumber = 0.5;
  EXPECT_NE(refusal(d).find("the F-number must be above 0.5"), std::string::npos) << refusal(d);
  // Without --defocus-distance --fnumber is half of a pixel scale, as before.
  RunSpec f = small_spec();
  f.optics.wavelength_m = 1 * micron;
  f.optics.fnumber = 10;
  EXPECT_NE(refusal(f).find("--fnumber and --pixel-pitch: give both"), std::string::npos)
      << refusal(f);
}

// The command line: a bare number is an error naming the units; the file records both terms
// in the /psf attributes and the effective configuration, which reads back to the same run.
TEST(PupilTermsCli, ParsedRecordedAndRefused) {
  const std::string dir = fresh_dir("pupil_terms_cli");
  const CommandResult bare = run_psfsim("run --samples 16 --source-offset 1,2 -o " + dir + "/a.h5");
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.stderr_text.find("--source-offset '1': an angle needs a unit: mas, arcsec, "
                                  "arcmin, deg or lod"),
            std::string::npos)
      << bare.stderr_text;
  const CommandResult one = run_psfsim("run --samples 16 --source-offset 1lod -o " + dir + "/a.h5");
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_NE(one.stderr_text.find("--source-offset '1lod': give X,Y"), std::string::npos)
      << one.stderr_text;
  EXPECT_TRUE(folder_is_empty_of_outputs(dir));

  const std::string args =
      "run --backend cpu --samples 16 --wisdom none --source-offset 1.5lod,-0.5lod "
      "--defocus-distance -0.3mm --fnumber 20 --wavelength 1um";
  const CommandResult ok = run_psfsim(args + " -o " + dir + "/b.h5 --quiet");
  ASSERT_EQ(ok.exit_code, 0) << ok.stderr_text;
  const H5Snapshot b = read_h5(dir + "/b.h5");
  EXPECT_EQ(b.attributes.at("/psf@source_offset_lambda_over_d"), "1.500000,-0.500000");
  EXPECT_EQ(b.attributes.at("/psf@defocus_distance_m"), "-0.000300");
  const std::string config = b.attributes.at("/@config");
  EXPECT_NE(config.find("source-offset = \"1.5lod,-0.5lod\""), std::string::npos) << config;
  EXPECT_NE(config.find("defocus-distance = \"-300um\""), std::string::npos) << config;
  write_text(dir + "/again.toml", config);
  const CommandResult again =
      run_psfsim("run -c " + dir + "/again.toml -o " + dir + "/c.h5 --quiet");
  ASSERT_EQ(again.exit_code, 0) << again.stderr_text;
  EXPECT_EQ(read_h5(dir + "/c.h5").datasets.at("/psf"), b.datasets.at("/psf"));
}

}  // namespace
}  // namespace psfsim::test

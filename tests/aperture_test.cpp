// docs/spec.md §7's apertures and pupil maps: the sampled areas against the analytic ones, the
// diffraction spikes of spiders and the six-fold symmetry of a hexagon, maps read from HDF5,
// .npy and FITS that reproduce the built-in pupil bit for bit and --zernike to rounding, the
// file errors, and the GPU against the CPU (skipped visibly without a device).
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "psfsim/aperture_geometry.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/pupil_sampling.hpp"
#include "psfsim/pupil_maps.hpp"
#include "psfsim/spectrum.hpp"
#include "psfsim/units.hpp"
#include "map_writers.hpp"
#include "test_support.hpp"

namespace psfsim {
namespace {

using test::relative_l2;
constexpr double pi = std::numbers::pi;

using test::Dims;
using test::write_fits;
using test::write_h5;
using test::write_npy;

// ---------------------------------------------------------------------------------------
// Runs through the library.

RunSpec spec_for(const std::string& backend, int n, int m, Precision p,
                 Normalization norm = Normalization::peak) {
  test::Case c = test::make_case(n, m, Grid::centered, norm);
  return test::spec_for(backend, c, p);
}


std::vector<double> run_frame(const RunSpec& spec) { return test::run_spec_frames(spec).front(); }

double coordinate(int i, int n) { return (i - n / 2.0) * (2.0 / n); }  // docs/spec.md §1, centered

// The energy of a K x K frame (axis at K/2) in `bins` angular bins centred on multiples of
// 360/bins degrees (so that an axis is a bin's centre, not its edge), over radii [r1, r2] in
// pixels, the angle atan2(y, x) with row = y and column = x. Each pixel is spread over 8 x 8
// points, so that a bin collects a fair share of the pixels its edges cut.
std::vector<double> angular_profile(const std::vector<double>& frame, int k, double r1, double r2,
                                    int bins) {
  constexpr int sub = 8;
  std::vector<double> profile(static_cast<std::size_t>(bins), 0.0);
  const int lo = std::max(0, k / 2 - static_cast<int>(r2) - 1);
  const int hi = std::min(k, k / 2 + static_cast<int>(r2) + 2);
  for (int r = lo; r < hi; ++r)
    for (int c = lo; c < hi; ++c) {
      const double value = frame[static_cast<std::size_t>(r) * k + c] / (sub * sub);
      for (int i = 0; i < sub; ++i)
        for (int j = 0; j < sub; ++j) {
          const double dy = r - k / 2 + (i + 0.5) / sub - 0.5;
          const double dx = c - k / 2 + (j + 0.5) / sub - 0.5;
          const double radius = std::hypot(dx, dy);
          if (radius < r1 || radius > r2) continue;
          double angle = std::atan2(dy, dx) + pi / bins;
          if (angle < 0) angle += 2 * pi;
          profile[static_cast<std::size_t>(static_cast<int>(angle / (2 * pi) * bins) % bins)] +=
              value;
        }
    }
  return profile;
}

// Angles (degrees) of the profile's peaks: bins that are the maximum within +-`half`
// bins and stand above the median by a third of the range.
std::vector<double> peak_angles(const std::vector<double>& p, int half) {
  const int bins = static_cast<int>(p.size());
  std::vector<double> sorted = p;
  std::nth_element(sorted.begin(), sorted.begin() + bins / 2, sorted.end());
  const double median = sorted[static_cast<std::size_t>(bins / 2)];
  const double top = *std::max_element(p.begin(), p.end());
  const double floor = median + (top - median) / 3.0;
  std::vector<double> angles;
  for (int b = 0; b < bins; ++b) {
    const double v = p[static_cast<std::size_t>(b)];
    if (v < floor) continue;
    bool peak = true;
    for (int d = -half; d <= half && peak; ++d) {
      const double w = p[static_cast<std::size_t>((b + d + bins) % bins)];
      if (w > v || (w == v && d < 0)) peak = false;  // a plateau counts once
    }
    if (peak) angles.push_back(b * 360.0 / bins);
  }
  return angles;
}

double angle_distance(double a, double b) {
  const double d = std::fmod(std::fabs(a - b), 360.0);
  return std::min(d, 360.0 - d);
}

// ---------------------------------------------------------------------------------------
// Geometry: areas and boundaries.

// Area of the strip |d| < h on one side (t > 0) of the annulus eps <= rho <= 1:
// int_{-h}^{h} sqrt(1 - d^2) - sqrt(eps^2 - d^2) dd.
double strut_area(double h, double eps) {
  const auto half_disk_strip = [h](double r) {
    return h * std::sqrt(r * r - h * h) + r * r * std::asin(h / r);
  };
  return half_disk_strip(1.0) - half_disk_strip(eps);
}

TEST(ApertureGeometry, SpiderAreaIsTheAnnulusMinusTheStruts) {
  const int n = 1024;
  const double dx = 2.0 / n;
  const double eps = 0.3;
  for (const int count : {3, 4, 6})
    for (const double angle : {0.0, 17.0}) {
      SCOPED_TRACE(std::to_string(count) + " struts at " + std::to_string(angle));
      ApertureSpec a;
      a.spiders = Spiders{count, 0.02, angle};
      const SampledPupil plain(n, n, Grid::centered, eps);
      const SampledPupil shaped(n, n, Grid::centered, eps, a, 0.0, 1);
      const double struts = count * strut_area(0.02, eps);  // half width 0.02 in D = 2 units
      const double removed = (plain.aperture_sum - shaped.aperture_sum) * dx * dx;
      // Each straight edge is off by at most half a sample row along its length.
      EXPECT_NEAR(removed, struts, 0.5 * dx * 2 * count * (1 - eps)) << "struts " << struts;
      const double annulus = pi * (1 - eps * eps);
      EXPECT_NEAR(shaped.aperture_sum * dx * dx, annulus - struts,
                  0.5 * dx * (2 * count * (1 - eps)) + 1e-3 * annulus);
      EXPECT_DOUBLE_EQ(shaped.peak_scale, 1.0 / (shaped.aperture_sum * shaped.aperture_sum));
    }
}

TEST(ApertureGeometry, HexagonAreasAreTheSegmentsMinusTheGaps) {
  const int n = 1024;
  const double dx = 2.0 / n;
  for (const int rings : {0, 1, 2})
    for (const bool center : {true, false}) {
      if (rings == 0 && !center) continue;
      const HexSegments h{rings, 0.01, center};
      SCOPED_TRACE(to_string(h));
      const HexLayout layout = hex_layout(h);
      const std::size_t segments = 1 + 3 * rings * (rings + 1) - (center ? 0 : 1);
      ASSERT_EQ(layout.centres.size(), segments);
      EXPECT_NEAR(layout.pitch - layout.flat, 0.02, 1e-15);  // GAP 0.01 of D = 2
      // The outermost vertices touch the rim, from inside.
      double far = 0.0;
      for (const auto& c : layout.centres)
        for (int k = 0; k < 6; ++k) {
          const double t = (30.0 + 60.0 * k) * pi / 180.0;
          far = std::max(far, std::hypot(c[0] + layout.flat / std::sqrt(3.0) * std::cos(t),
                                         c[1] + layout.flat / std::sqrt(3.0) * std::sin(t)));
        }
      EXPECT_NEAR(far, 1.0, 1e-12);
      ApertureSpec a;
      a.hex_segments = h;
      const SampledPupil f(n, n, Grid::centered, 0.0, a, 0.0, 1);
      const double area =
          static_cast<double>(segments) * std::sqrt(3.0) / 2 * layout.flat * layout.flat;
      const double perimeter = static_cast<double>(segments) * 6 * layout.flat / std::sqrt(3.0);
      EXPECT_NEAR(f.aperture_sum * dx * dx, area, 0.5 * dx * perimeter);
      // Replacing the circle: nothing clear outside the rim.
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
          if (f.amplitude[static_cast<std::size_t>(r) * n + c] == 0.0) continue;
          ASSERT_LE(std::hypot(f.coordinates[c], f.coordinates[r]), 1.0 + 1e-12);
        }
    }
}

// `flat` turns the pattern by 90 degrees: on the centered grid (the same coordinates on both
// axes) its mask is the pointy-topped one transposed, and a lone segment's top is a flat edge
// (the inradius, sqrt(3)/2 of the rim) where the pointy one's is a vertex on the rim.
TEST(ApertureGeometry, FlatTopSegmentsAreThePatternTurnedByNinetyDegrees) {
  const int n = 256;
  for (const int rings : {0, 2}) {
    ApertureSpec pointy, flat;
    pointy.hex_segments = HexSegments{rings, 0.01, true, false};
    flat.hex_segments = HexSegments{rings, 0.01, true, true};
    const SampledPupil p(n, n, Grid::centered, 0.0, pointy, 0.0, 1);
    const SampledPupil f(n, n, Grid::centered, 0.0, flat, 0.0, 1);
    EXPECT_EQ(p.aperture_sum, f.aperture_sum);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        ASSERT_EQ(f.amplitude[static_cast<std::size_t>(r) * n + c],
                  p.amplitude[static_cast<std::size_t>(c) * n + r])
            << "rings " << rings << ", row " << r << ", column " << c;
    if (rings != 0) continue;
    const auto top = [&](const SampledPupil& s) {  // the highest clear sample on x = 0
      double y = 0.0;
      for (int r = 0; r < n; ++r)
        if (s.amplitude[static_cast<std::size_t>(r) * n + n / 2] != 0.0)
          y = std::max(y, std::fabs(s.coordinates[r]));
      return y;
    };
    EXPECT_NEAR(top(p), 1.0, 2.0 / n);
    EXPECT_NEAR(top(f), std::sqrt(3.0) / 2, 2.0 / n);
  }
  EXPECT_EQ(to_string(parse_hex_segments("2,0.005,flat", "--hex-segments")), "2,0.005,flat");
  EXPECT_EQ(to_string(parse_hex_segments("2,0.005,flat,nocenter", "--hex-segments")),
            "2,0.005,nocenter,flat");
  EXPECT_THROW((void)parse_hex_segments("2,0.005,flat,flat", "--hex-segments"), InputError);
  EXPECT_THROW((void)parse_hex_segments("2,0.005,flat,round", "--hex-segments"), InputError);
  EXPECT_THROW((void)parse_hex_segments("2,0.005,nocenter,flat,x", "--hex-segments"), InputError);
}

TEST(ApertureGeometry, SamplesOnABoundaryAreClear) {
  // N = 8: samples at multiples of 0.25. A strut along +x of WIDTH 0.125 (half width 0.25
  // in D = 2 units): y = +-0.25 is on its edge, clear; y = 0 is blocked beyond the hub.
  ApertureSpec a;
  a.spiders = Spiders{1, 0.125, 0.0};
  const SampledPupil f(8, 16, Grid::centered, 0.5, a, 0.0, 1);
  const auto at = [&](int r, int c) { return f.amplitude[static_cast<std::size_t>(r) * 8 + c]; };
  EXPECT_EQ(at(4, 6), 0.0) << "(0.5, 0): on the strut";
  EXPECT_EQ(at(5, 6), 1.0) << "(0.5, 0.25): on the strut's edge";
  EXPECT_EQ(at(3, 6), 1.0) << "(0.5, -0.25): on the strut's edge";
  EXPECT_EQ(at(4, 2), 1.0) << "(-0.5, 0): behind the hub, on the obscuration's edge";
  EXPECT_EQ(at(4, 0), 1.0) << "(-1, 0): on the rim";
  EXPECT_EQ(at(4, 3), 0.0) << "(-0.25, 0): obscured";
  // The spans bound the clear samples of each row.
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c)
      if (at(r, c) != 0.0) {
        EXPECT_GE(c, f.spans[r].lo);
        EXPECT_LT(c, f.spans[r].hi);
      }
}

TEST(ApertureGeometry, RefusesWhatLeavesNoPupil) {
  ApertureSpec a;
  a.hex_segments = HexSegments{3, 0.4, true};
  EXPECT_THROW(hex_layout(*a.hex_segments), InputError);
  a.hex_segments.reset();
  a.spiders = Spiders{360, 0.5, 0.0};
  EXPECT_THROW(SampledPupil(16, 32, Grid::centered, 0.0, a, 0.0, 1), InputError);
  EXPECT_THROW((void)parse_spiders("4", "--spiders"), InputError);
  EXPECT_THROW((void)parse_spiders("0,0.1", "--spiders"), InputError);
  EXPECT_THROW((void)parse_spiders("3,1.5", "--spiders"), InputError);
  EXPECT_THROW((void)parse_hex_segments("2,0.01,center", "--hex-segments"), InputError);
  EXPECT_EQ(to_string(parse_spiders("3, 0.01", "--spiders")), "3,0.01,0");
  EXPECT_EQ(to_string(parse_hex_segments("2,0.005,nocenter", "--hex-segments")),
            "2,0.005,nocenter");
}

// ---------------------------------------------------------------------------------------
// The PSFs of the shapes.

// N struts give 2N spikes for odd N (each strut its own line) and N for even N (opposite
// struts share one), perpendicular to the struts.
TEST(AperturePsf, SpiderSpikesAreTwiceTheOddStrutsAndAsManyAsTheEven) {
  const int n = 128, m = 512;  // Q = 4 pixels per lambda/D
  for (const auto& [count, angle] : {std::pair{3, 0.0}, {4, 45.0}, {5, 10.0}, {6, 0.0}}) {
    SCOPED_TRACE(std::to_string(count) + " struts at " + std::to_string(angle));
    RunSpec s = spec_for("cpu", n, m, Precision::double_);
    s.obscuration = 0.2;
    s.aperture.spiders = Spiders{count, 0.03, angle};
    const auto frame = run_frame(s);
    const auto profile = angular_profile(frame, m, 4.0 * 8, 4.0 * 40, 180);
    const auto peaks = peak_angles(profile, 4);
    const std::size_t expected = count % 2 == 1 ? 2 * count : count;
    EXPECT_EQ(peaks.size(), expected);
    for (const double p : peaks) {
      double nearest = 360.0;
      for (int k = 0; k < count; ++k)
        for (const double side : {90.0, 270.0})
          nearest = std::min(nearest, angle_distance(p, angle + 360.0 * k / count + side));
      EXPECT_LE(nearest, 3.0) << "a peak at " << p << " degrees";
    }
  }
}

TEST(AperturePsf, HexagonHasSixFoldSymmetry) {
  const int n = 256, m = 1024;
  RunSpec s = spec_for("cpu", n, m, Precision::double_);
  s.aperture.hex_segments = HexSegments{0, 0.0, true};
  const auto frame = run_frame(s);
  // Bins of 10 degrees: wide enough that a direction across the pixel grid and one along it
  // collect alike.
  const int bins = 36;
  const auto p = angular_profile(frame, m, 4.0 * 2, 4.0 * 12, bins);
  const auto rotated = [&](int degrees) {
    std::vector<double> r(p.size());
    for (int b = 0; b < bins; ++b)
      r[static_cast<std::size_t>(b)] = p[static_cast<std::size_t>((b + degrees / 10) % bins)];
    return r;
  };
  for (const int turn : {60, 120, 180, 240, 300})
    EXPECT_LE(relative_l2(rotated(turn), p), 0.03) << turn << " degrees";
  // Not merely round: a turn of 30 degrees moves the six spikes between themselves.
  EXPECT_GE(relative_l2(rotated(30), p), 0.3);
  const auto peaks = peak_angles(p, 2);
  ASSERT_EQ(peaks.size(), 6u);
  for (const double a : peaks) EXPECT_EQ(std::fmod(a, 60.0), 0.0) << a;
}

// ---------------------------------------------------------------------------------------
// Maps from files.

struct Maps {
  std::string dir;
  int n;
  std::vector<double> annulus;  // psfsim's own aperture, 1 and 0
};

Maps annulus_maps(const std::string& name, int n, double eps) {
  Maps m{test::fresh_dir(name), n, {}};
  const SampledPupil f(n, 2 * n, Grid::centered, eps);
  m.annulus.assign(static_cast<std::size_t>(n) * n, 0.0);
  for (int r = 0; r < n; ++r) {
    const ApertureSpan& s = f.spans[r];
    for (int c = s.lo; c < s.hi; ++c)
      if (c < s.obscured_lo || c >= s.obscured_hi)
        m.annulus[static_cast<std::size_t>(r) * n + c] = 1.0;
  }
  return m;
}

TEST(PupilMapFiles, OwnApertureFromEveryFormatReproducesTheBuiltInPsfBitForBit) {
  const int n = 48;
  const Maps maps = annulus_maps("maps-own", n, 0.25);
  const Dims dims{static_cast<std::size_t>(n), static_cast<std::size_t>(n)};
  write_npy(maps.dir + "/a.npy", dims, maps.annulus);
  write_npy(maps.dir + "/a32.npy", dims, maps.annulus, "<f4");
  write_fits(maps.dir + "/a.fits", dims, maps.annulus);
  write_fits(maps.dir + "/a32.fits", dims, maps.annulus, -32);
  write_h5(maps.dir + "/a.h5", "only", dims, maps.annulus);
  write_h5(maps.dir + "/b.h5", "maps/amplitude", dims, maps.annulus, H5T_IEEE_F32LE);
  write_h5(maps.dir + "/b.h5", "other", dims, maps.annulus, H5T_IEEE_F64LE, false);
  for (const Precision p : {Precision::single, Precision::double_})
    for (const Normalization norm : {Normalization::peak, Normalization::none}) {
      RunSpec s = spec_for("cpu", n, 96, p, norm);
      s.obscuration = 0.25;
      s.frames = {Aberration{{{2, 1, 0.7}}, {{4, 0.2}, {8, -0.1}}}};
      const auto built_in = run_frame(s);
      for (const std::string file : {"a.npy", "a32.npy", "a.fits", "a32.fits", "a.h5",
                                     "b.h5:maps/amplitude", "b.h5:/maps/amplitude"}) {
        SCOPED_TRACE(file + " " + std::string(to_string(p)));
        RunSpec mapped = s;
        mapped.aperture.amplitude = maps.dir + "/" + file;
        EXPECT_EQ(run_frame(mapped), built_in);
        // The map alone (no --obscuration) multiplies the circle into the same annulus.
        mapped.obscuration = 0.0;
        EXPECT_EQ(run_frame(mapped), built_in);
      }
    }
}

// The sampler reads no file: it takes the maps io read into the spec (read_pupil_maps), and a
// map the spec names but io has not read (or read for another name) is the caller's mistake.
TEST(PupilMapFiles, TheSamplerTakesTheMapsIoReadIntoTheSpec) {
  const int n = 16;
  const Maps maps = annulus_maps("maps-read", n, 0.25);
  const Dims dims{static_cast<std::size_t>(n), static_cast<std::size_t>(n)};
  write_npy(maps.dir + "/a.npy", dims, maps.annulus);
  write_npy(maps.dir + "/b.npy", dims, maps.annulus);
  ApertureSpec a;
  a.amplitude = maps.dir + "/a.npy";
  EXPECT_THROW(SampledPupil(n, 2 * n, Grid::centered, 0.0, a, 0.0, 1), std::logic_error);
  read_pupil_maps(a);
  ASSERT_TRUE(a.amplitude_map);
  EXPECT_FALSE(a.opd_map);
  EXPECT_EQ(a.amplitude_map->source, a.amplitude);
  EXPECT_EQ(a.amplitude_map->values, maps.annulus);
  const SampledPupil sampled(n, 2 * n, Grid::centered, 0.0, a, 0.0, 1);
  EXPECT_EQ(sampled.amplitude, maps.annulus);
  a.amplitude = maps.dir + "/b.npy";
  EXPECT_THROW(SampledPupil(n, 2 * n, Grid::centered, 0.0, a, 0.0, 1), std::logic_error);
}

// --photons counts the pupil's energy, sum A^2 (Parseval), not sum A: a half-transmitting
// map puts the same P photo-electrons on the focal plane as the clear pupil.
TEST(PupilMapFiles, PhotonsOfAGradedMapFillTheFocalPlane) {
  const int n = 32;
  Maps maps = annulus_maps("maps-graded", n, 0.0);
  for (double& a : maps.annulus) a *= 0.5;
  const Dims dims{static_cast<std::size_t>(n), static_cast<std::size_t>(n)};
  write_npy(maps.dir + "/half.npy", dims, maps.annulus);
  RunSpec s = spec_for("cpu", n, 2 * n, Precision::double_, Normalization::none);
  s.aperture.amplitude = maps.dir + "/half.npy";
  s.optics.photons = 1e6;  // the whole M x M frame: nothing falls outside
  const auto frame = run_frame(s);
  double total = 0.0;
  for (const double v : frame) total += v;
  EXPECT_NEAR(total, 1e6, 5 * std::sqrt(1e6));
}

std::vector<double> z4_map(int n, double waves) {
  std::vector<double> map(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double x = coordinate(c, n), y = coordinate(r, n);
      map[static_cast<std::size_t>(r) * n + c] = waves * std::sqrt(3.0) * (2 * (x * x + y * y) - 1);
    }
  return map;
}

TEST(PupilMapFiles, OpdOfZ4MatchesTheZernikeTermToRounding) {
  const int n = 64;
  const std::string dir = test::fresh_dir("maps-z4");
  const Dims dims{static_cast<std::size_t>(n), static_cast<std::size_t>(n)};
  write_npy(dir + "/z4.npy", dims, z4_map(n, 0.3));
  write_fits(dir + "/z4nm.fits", dims, z4_map(n, 0.3 * 633.0));
  write_h5(dir + "/z4um.h5", "opd", dims, z4_map(n, 0.3 * 0.633));
  for (const Precision p : {Precision::single, Precision::double_}) {
    const double tolerance = p == Precision::double_ ? 1e-12 : 1e-5;
    RunSpec zernike = spec_for("cpu", n, 128, p);
    zernike.obscuration = 0.1;
    zernike.frames = {Aberration{{}, {{4, 0.3}, {7, 0.05}}}};
    RunSpec opd = zernike;
    opd.frames = {Aberration{{}, {{7, 0.05}}}};
    opd.aperture.opd = dir + "/z4.npy";
    EXPECT_LE(relative_l2(run_frame(opd), run_frame(zernike)), tolerance);
    // In nm and um at the wavelength; with the detector stage, whose aberration-free
    // reference must leave the OPD out as it leaves the terms out.
    for (const auto& [file, units] : {std::pair{"/z4nm.fits", AberrationUnits::nm},
                                      std::pair{"/z4um.h5", AberrationUnits::um}}) {
      SCOPED_TRACE(std::string(file) + " " + std::string(to_string(p)));
      RunSpec length = opd;
      length.aperture.opd = dir + file;
      length.aperture.opd_units = units;
      length.optics.wavelength_m = 633e-9;
      RunSpec reference = zernike;
      reference.optics.wavelength_m = 633e-9;
      EXPECT_LE(relative_l2(run_frame(length), run_frame(reference)), tolerance);
      length.optics.oversample = 2;
      length.crop = 32;
      reference.optics.oversample = 2;
      reference.crop = 32;
      EXPECT_LE(relative_l2(run_frame(length), run_frame(reference)), tolerance);
    }
  }
}

TEST(PupilMapFiles, PolychromaticOpdScalesLikeTheTerms) {
  const int n = 40;
  const std::string dir = test::fresh_dir("maps-poly");
  write_npy(dir + "/z4.npy", {40, 40}, z4_map(n, 120.0));  // nm
  RunSpec zernike = spec_for("cpu", n, 80, Precision::double_);
  zernike.optics.aberration_units = AberrationUnits::nm;
  zernike.frames = {Aberration{{}, {{4, 120.0}}}};
  zernike.padded_size.reset();  // the pixel scale sets the sampling
  zernike.optics.pixel_scale = Angle{0.4, true};
  zernike.optics.wavelengths_text = "500nm:1,650nm:3";
  zernike.optics.spectrum = {{500e-9, 0.25}, {650e-9, 0.75}};
  zernike.crop = 25;
  RunSpec opd = zernike;
  opd.frames = {Aberration{}};
  opd.aperture.opd = dir + "/z4.npy";
  opd.aperture.opd_units = AberrationUnits::nm;
  EXPECT_LE(relative_l2(run_frame(opd), run_frame(zernike)), 1e-12);
}

TEST(PupilMapFiles, StackOfOpdMapsIsOneMapPerFrame) {
  const int n = 32;
  const std::string dir = test::fresh_dir("maps-stack");
  std::vector<double> stack;
  const std::vector<double> coefficients{-0.4, 0.0, 0.25, 0.6};
  for (const double c : coefficients) {
    const auto z = z4_map(n, c);
    stack.insert(stack.end(), z.begin(), z.end());
  }
  write_npy(dir + "/stack.npy", {4, 32, 32}, stack);
  EXPECT_EQ(pupil_map_frames(ApertureSpec{{}, {}, "", dir + "/stack.npy"}), 4u);
  RunSpec zernike = spec_for("cpu", n, 64, Precision::double_);
  zernike.frames.clear();
  for (const double c : coefficients) zernike.frames.push_back(Aberration{{}, {{4, c}}});
  RunSpec opd = zernike;
  opd.frames.assign(4, Aberration{});
  opd.aperture.opd = dir + "/stack.npy";
  for (const int chunk : {1, 3, 4}) {  // each call's frames pick their own maps
    opd.chunk_frames = chunk;
    const auto a = test::run_spec_frames(opd), b = test::run_spec_frames(zernike);
    ASSERT_EQ(a.size(), 4u);
    for (std::size_t f = 0; f < 4; ++f) EXPECT_LE(relative_l2(a[f], b[f]), 1e-12) << f;
  }
  opd.frames.assign(3, Aberration{});
  EXPECT_THROW((void)test::run_spec_frames(opd), InputError) << "4 maps for 3 frames";
}

TEST(PupilMapFiles, StackOfAmplitudeMapsNeedsAPerFrameNormalization) {
  const int n = 32;
  const Maps maps = annulus_maps("maps-amp-stack", n, 0.0);
  std::vector<double> stack = maps.annulus;
  for (std::size_t i = 0; i < maps.annulus.size(); ++i)
    stack.push_back(maps.annulus[i] * ((i % n) < static_cast<std::size_t>(n / 2) ? 0.5 : 1.0));
  write_npy(maps.dir + "/stack.npy", {2, 32, 32}, stack);
  write_npy(maps.dir + "/half.npy", {32, 32},
            std::vector<double>(stack.begin() + n * n, stack.end()));
  RunSpec s = spec_for("cpu", n, 64, Precision::double_, Normalization::sum);
  s.frames.assign(2, Aberration{{}, {{5, 0.2}}});
  s.aperture.amplitude = maps.dir + "/stack.npy";
  const auto frames = test::run_spec_frames(s);
  RunSpec one = s;
  one.frames.resize(1);
  one.aperture.amplitude.clear();
  EXPECT_LE(relative_l2(frames[0], run_frame(one)), 1e-14);
  one.aperture.amplitude = maps.dir + "/half.npy";
  EXPECT_LE(relative_l2(frames[1], run_frame(one)), 1e-14);
  s.normalization = Normalization::peak;
  EXPECT_THROW((void)test::run_spec_frames(s), InputError);
}

// The one-line errors of psfsim run, exit 2, naming the file.
TEST(PupilMapFiles, BadFilesExit2NamingTheFile) {
  const std::string d = test::fresh_dir("maps-bad");
  const std::vector<double> ok(16 * 16, 1.0);
  std::vector<double> with_nan = ok;
  with_nan[37] = std::nan("");
  write_npy(d + "/shape.npy", {16, 15}, std::vector<double>(16 * 15, 1.0));
  write_npy(d + "/rank.npy", {256}, ok);
  write_npy(d + "/complex.npy", {16, 16}, ok, "<c16");
  write_npy(d + "/string.npy", {16, 16}, ok, "|S8");
  write_npy(d + "/half.npy", {16, 16}, ok, "<f2");
  write_npy(d + "/fortran.npy", {16, 15}, std::vector<double>(16 * 15, 1.0), ">f8", true);
  write_npy(d + "/nan.npy", {16, 16}, with_nan);
  std::vector<double> with_blank = ok;
  with_blank[37] = -1;
  write_fits(d + "/blank.fits", {16, 16}, with_blank, 16, {{"BLANK", "-1"}});
  write_fits(d + "/shape.fits", {17, 16}, std::vector<double>(17 * 16, 1.0));
  write_fits(d + "/nan.fits", {16, 16}, with_nan, -32);
  const hid_t complex = H5Tcreate(H5T_COMPOUND, 16);  // h5py's complex128
  H5Tinsert(complex, "r", 0, H5T_IEEE_F64LE);
  H5Tinsert(complex, "i", 8, H5T_IEEE_F64LE);
  write_h5(d + "/complex.h5", "a", {16, 16}, {}, complex);
  H5Tclose(complex);
  const hid_t colour = H5Tenum_create(H5T_STD_I8LE);  // an enum that is not h5py's bool
  for (const signed char v : {0, 1}) H5Tenum_insert(colour, v == 0 ? "RED" : "GREEN", &v);
  write_h5(d + "/enum.h5", "a", {16, 16}, {}, colour);
  H5Tclose(colour);
  write_h5(d + "/two.h5", "a", {16, 16}, ok);
  write_h5(d + "/two.h5", "b", {16, 16}, ok, H5T_IEEE_F64LE, false);
  write_h5(d + "/nan.h5", "a", {16, 16}, with_nan);
  write_npy(d + "/stack.npy", {2, 16, 16}, std::vector<double>(2 * 16 * 16, 0.1));
  std::ofstream(d + "/text.npy") << "not a map\n";
  struct Bad {
    std::string args;
    std::string mention;
  };
  const std::vector<Bad> cases{
      {"--pupil-amplitude " + d + "/shape.npy", "16 x 15 map"},
      {"--pupil-opd " + d + "/rank.npy", "has 1"},
      {"--pupil-amplitude " + d + "/complex.npy", "dtype '<c16'"},
      {"--pupil-amplitude " + d + "/string.npy", "dtype '|S8'"},
      {"--pupil-amplitude " + d + "/half.npy", "dtype '<f2'"},
      {"--pupil-opd " + d + "/fortran.npy", "16 x 15 map"},
      {"--pupil-opd " + d + "/nan.npy", "non-finite value (nan) at row 2, column 5"},
      {"--pupil-amplitude " + d + "/blank.fits", "non-finite value (nan) at row 2, column 5"},
      {"--pupil-amplitude " + d + "/shape.fits", "17 x 16 map"},
      {"--pupil-opd " + d + "/nan.fits", "non-finite"},
      {"--pupil-amplitude " + d + "/complex.h5", "an integer, a float or a bool"},
      {"--pupil-amplitude " + d + "/enum.h5", "an integer, a float or a bool"},
      {"--pupil-amplitude " + d + "/two.h5", "2 datasets"},
      {"--pupil-amplitude " + d + "/two.h5:c", "no dataset 'c'"},
      {"--pupil-opd " + d + "/nan.h5:a", "non-finite"},
      {"--pupil-opd " + d + "/a.npy:x", "a.npy"},
      {"--pupil-opd " + d + "/missing.fits", "missing.fits: cannot open it"},
      {"--pupil-opd " + d + "/text.npy", "not an HDF5, NumPy .npy or FITS file"},
      {"--pupil-opd " + d + "/stack.npy --vary Z4,0,1,2", "--vary"},
      {"--pupil-opd " + d + "/two.h5:a --opd-units nm", "--opd-units nm"},
  };
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.args);
    const auto r = test::run_psfsim("run --backend cpu --samples 16 --quiet " + bad.args + " -o " +
                                    d + "/out.h5");
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    EXPECT_EQ(r.stderr_text.rfind("psfsim: error: ", 0), 0u) << r.stderr_text;
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find(bad.mention), std::string::npos) << r.stderr_text;
    const bool names_a_file = bad.args.find("vary") == std::string::npos &&
                              bad.args.find("opd-units") == std::string::npos;
    if (names_a_file) {
      EXPECT_NE(r.stderr_text.find(d + "/"), std::string::npos) << "names the file";
    }
  }
}

TEST(PupilMapFiles, StackMakesTheBatchOfTheCommandLine) {
  const std::string d = test::fresh_dir("maps-cli");
  std::vector<double> stack;
  for (const double c : {0.1, 0.2, 0.3}) {
    const auto z = z4_map(16, c);
    stack.insert(stack.end(), z.begin(), z.end());
  }
  write_npy(d + "/stack.npy", {3, 16, 16}, stack);
  const auto r = test::run_psfsim(
      "run --backend cpu --samples 16 --spiders 3,0.05 "
      "--pupil-opd " +
      d + "/stack.npy -o " + d + "/out.h5");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("3 x 32 x 32"), std::string::npos) << r.stdout_text;
}

// ---------------------------------------------------------------------------------------
// The GPU against the CPU.

TEST(ApertureCuda, EqualsTheCpuForShapesAndMaps) {
  SKIP_WITHOUT_CUDA();
  const int n = 64;
  const std::string dir = test::fresh_dir("maps-cuda");
  std::vector<double> amplitude(static_cast<std::size_t>(n) * n), stack;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      amplitude[static_cast<std::size_t>(r) * n + c] =
          0.6 + 0.4 * coordinate(c, n) * coordinate(r, n);
  write_npy(dir + "/amplitude.npy", {64, 64}, amplitude);
  for (const double c : {-0.3, 0.2, 0.5}) {
    auto z = z4_map(n, c);
    for (std::size_t i = 0; i < z.size(); ++i) z[i] += 0.05 * std::sin(static_cast<double>(i));
    stack.insert(stack.end(), z.begin(), z.end());
  }
  write_npy(dir + "/opd.npy", {3, 64, 64}, stack);
  write_npy(dir + "/opd1.npy", {64, 64}, std::vector<double>(stack.begin(), stack.begin() + n * n));
  std::vector<double> amplitudes;
  for (const double scale : {1.0, 0.5, 0.8})
    for (const double v : amplitude) amplitudes.push_back(scale * v * v);
  write_npy(dir + "/amplitudes.npy", {3, 64, 64}, amplitudes);
  for (const Precision p : {Precision::single, Precision::double_})
    for (int variant = 0; variant < 7; ++variant) {
      SCOPED_TRACE("variant " + std::to_string(variant) + " " + std::string(to_string(p)));
      RunSpec s = spec_for("cpu", n, 128, p);
      s.frames.assign(3, Aberration{{{2, 1, 0.4}}, {{7, 0.1}}});
      s.obscuration = 0.2;
      s.aperture.spiders = Spiders{3, 0.02, 10.0};
      if (variant == 1) s.aperture.hex_segments = HexSegments{2, 0.01, false};
      if (variant >= 2) {
        s.aperture.amplitude = dir + "/amplitude.npy";
        s.aperture.opd = dir + "/opd.npy";
      }
      if (variant == 3 || variant == 4) s.padded_size.reset();  // the pixel scale sets it
      if (variant == 3) {  // the MFT at a pixel scale no FFT has
        s.optics.pixel_scale = Angle{0.37, true};
        s.crop = 31;
      }
      if (variant == 4) {  // the MFT over a spectrum, the OPD in nm
        s.aperture.opd_units = AberrationUnits::nm;
        s.optics.pixel_scale = Angle{0.5, true};
        s.optics.wavelengths_text = "500nm:1,600nm:2";
        s.optics.spectrum = parse_wavelengths("500nm:1,600nm:2", "--wavelengths");
        s.crop = 24;
      }
      if (variant == 5) {  // the detector's aberration-free reference, and pieced calls
        s.frames.assign(3, Aberration{});
        s.aperture.opd = dir + "/opd1.npy";
        s.optics.oversample = 2;
        s.crop = 32;
        s.chunk_frames = 2;
      }
      if (variant == 6) {  // one amplitude map per frame
        s.aperture.amplitude = dir + "/amplitudes.npy";
        s.normalization = Normalization::sum;
      }
      RunSpec gpu = s;
      gpu.backend = "cuda";
      const auto a = test::run_spec_frames(gpu), b = test::run_spec_frames(s);
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t f = 0; f < a.size(); ++f)
        EXPECT_LE(relative_l2(a[f], b[f]), test::backend_tolerance(p)) << "frame " << f;
    }
}

TEST(ApertureCuda, OwnApertureFileReproducesTheBuiltInPsfBitForBit) {
  SKIP_WITHOUT_CUDA();
  const int n = 64;
  const Maps maps = annulus_maps("maps-cuda-own", n, 0.3);
  write_npy(maps.dir + "/a.npy", {64, 64}, maps.annulus);
  for (const Precision p : {Precision::single, Precision::double_}) {
    RunSpec s = spec_for("cuda", n, 128, p);
    s.obscuration = 0.3;
    s.frames = {Aberration{{{2, 1, 0.7}}, {{4, 0.2}}}};
    RunSpec mapped = s;
    mapped.aperture.amplitude = maps.dir + "/a.npy";
    EXPECT_EQ(run_frame(mapped), run_frame(s)) << to_string(p);
  }
}

}  // namespace
}  // namespace psfsim

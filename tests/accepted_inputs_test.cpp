// What psfsim accepts it computes right, and what it cannot compute it refuses before any
// work (docs/pupils.md, docs/physical-optics.md, docs/output.md): OPD maps of 1e9 waves,
// amplitude maps of any scale, odd Seidel powers in single precision, the phase polynomial's
// rounding, photon counts beyond the precision, and spectra of 10000 wavelengths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "h5_snapshot.hpp"
#include "map_writers.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/frame_metrics.hpp"
#include "psfsim/metric_math.hpp"
#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/pupil_sampling.hpp"
#include "psfsim/pupil_maps.hpp"
#include "psfsim/units.hpp"
#include "psfsim/zernike.hpp"
#include "test_support.hpp"

namespace psfsim {
namespace {

using test::backend_tolerance;
using test::relative_l2;

constexpr int n = 32;

double coordinate(int i) { return (i - n / 2.0) * (2.0 / n); }  // docs/spec.md §1, centered

// An N x N map of f(x, y).
template <typename F>
std::vector<double> map_of(F f) {
  std::vector<double> v(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      v[static_cast<std::size_t>(r) * n + c] = f(coordinate(c), coordinate(r));
  return v;
}

std::string npy(const std::string& dir, const std::string& name, const std::vector<double>& v) {
  const std::string path = dir + "/" + name + ".npy";
  test::write_npy(path, {n, n}, v);
  return path;
}

class Accepted : public ::testing::TestWithParam<std::tuple<std::string, Precision>> {
 protected:
  void SetUp() override {
    const std::string why = test::skip_reason(backend());
    if (!why.empty()) GTEST_SKIP() << why;
  }
  [[nodiscard]] const std::string& backend() const { return std::get<0>(GetParam()); }
  [[nodiscard]] Precision precision() const { return std::get<1>(GetParam()); }

  // Aberrated frames, so that a wrong phase cannot hide in a symmetric PSF.
  [[nodiscard]] RunSpec spec() const {
    RunSpec s = test::spec_for(
        backend(), test::make_case(n, 2 * n, Grid::centered, Normalization::peak), precision());
    s.frames = {Aberration{{}, {{4, 0.2}, {8, -0.15}}}};
    return s;
  }
  // The same frames on a polychromatic MFT run: each wavelength scales the OPD itself.
  [[nodiscard]] RunSpec spectrum_spec() const {
    RunSpec s = spec();
    s.padded_size.reset();
    s.optics.diameter_m = 2.0;
    s.optics.pixel_scale = parse_angle("25mas", "--pixel-scale", false);
    s.optics.wavelengths_text = "500nm:1,650nm:3";
    s.optics.spectrum = {{500e-9, 0.25}, {650e-9, 0.75}};
    s.crop = 21;
    return s;
  }
  static std::vector<double> frame(RunSpec s, const std::string& opd,
                                   const std::string& amplitude = "") {
    s.aperture.opd = opd;
    s.aperture.amplitude = amplitude;
    return test::run_spec_frames(s).at(0);
  }
};

// A constant OPD is piston: at 1e9 waves (an HDF5 map and a .npy map) the PSF is the
// map-free PSF. Before, the CPU's quadrant overflowed an int past 2^29 waves and moved the
// PSF 3.4 lambda/D off axis.
TEST_P(Accepted, GigawavePistonMapChangesNothing) {
  const std::string dir = test::fresh_dir("gigawave_piston");
  const std::vector<double> piston(static_cast<std::size_t>(n) * n, 1e9);
  const std::string h5 = dir + "/piston.h5";
  test::write_h5(h5, "opd", {n, n}, piston);
  for (const RunSpec& s : {spec(), spectrum_spec()}) {
    const std::vector<double> clear = frame(s, "");
    for (const std::string& map : {npy(dir, "piston", piston), h5}) {
      SCOPED_TRACE(map + (s.optics.spectrum.empty() ? "" : ", spectrum"));
      EXPECT_LE(relative_l2(frame(s, map), clear), backend_tolerance(precision()));
    }
  }
}

// 1e9 waves plus a pattern q is q, to the double each sample holds: the map 1e9 + q against
// the map (1e9 + q) - 1e9, which is exact. In nm on a spectrum too, where each wavelength
// scales the map.
TEST_P(Accepted, GigawaveOffsetKeepsEachSamplesFraction) {
  const std::string dir = test::fresh_dir("gigawave_offset");
  const std::vector<double> q =
      map_of([](double x, double y) { return 0.3 * x * x - 0.2 * x * y + 0.45 * y; });
  std::vector<double> offset(q.size()), exact(q.size());
  for (std::size_t i = 0; i < q.size(); ++i) {
    offset[i] = 1e9 + q[i];
    exact[i] = offset[i] - 1e9;  // Sterbenz: no rounding
  }
  const std::string far = npy(dir, "far", offset), near = npy(dir, "near", exact);
  const std::vector<double> reference = frame(spec(), near);
  EXPECT_LE(relative_l2(frame(spec(), far), reference), backend_tolerance(precision()));
  // The pattern moved the PSF: the comparison is not of two empty pupils.
  EXPECT_GT(relative_l2(reference, frame(spec(), "")), 1e-2);
  RunSpec nm = spectrum_spec();
  nm.aperture.opd_units = AberrationUnits::nm;  // 1e9 nm: 2e9 waves at 500 nm
  for (std::size_t i = 0; i < q.size(); ++i) {
    offset[i] = 1e9 + 300.0 * q[i];
    exact[i] = offset[i] - 1e9;
  }
  const std::string far_nm = npy(dir, "far_nm", offset), near_nm = npy(dir, "near_nm", exact);
  const std::vector<double> reference_nm = frame(nm, near_nm);
  EXPECT_LE(relative_l2(frame(nm, far_nm), reference_nm), backend_tolerance(precision()));
  EXPECT_GT(relative_l2(reference_nm, frame(nm, "")), 1e-2);
}

// A tilt of 2^27 whole waves per sample changes no sample's phase: the map's whole waves
// are dropped exactly before they meet the shift modulation (2e9 waves at the edge). (On a
// spectrum each wavelength scales the tilt off whole waves.)
TEST_P(Accepted, WholeWaveTiltMapOfGigawavesChangesNothing) {
  const std::string dir = test::fresh_dir("gigawave_tilt");
  std::vector<double> tilt(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) tilt[static_cast<std::size_t>(r) * n + c] = 0x1p27 * (c - n / 2);
  EXPECT_LE(relative_l2(frame(spec(), npy(dir, "tilt", tilt)), frame(spec(), "")),
            backend_tolerance(precision()));
}

// A piston of 1e6 waves at the reference is 1e9 waves at 10 nm of a 10 nm to 20 um band:
// the MFT's scaled phase passes 2^29 waves, where the CPU's quadrant overflowed an int.
TEST_P(Accepted, MillionWavePistonOnAWideBandChangesNothing) {
  RunSpec s = spectrum_spec();
  s.optics.wavelengths_text = "10nm,20um";
  s.optics.spectrum = {{10e-9, 0.5}, {20e-6, 0.5}};
  const std::vector<double> clear = frame(s, "");
  s.frames[0].zernike.push_back({1, 1e6});
  EXPECT_LE(relative_l2(frame(s, ""), clear), backend_tolerance(precision()));
}

// Peak normalization divides by (sum A)^2, so a map's scale cancels: 1e17 and 1e-30 (whose
// |E|^2 pass float's range) give the PSF of the unscaled map.
TEST_P(Accepted, AmplitudeScaleCancelsUnderPeakNormalization) {
  const std::string dir = test::fresh_dir("amplitude_scale");
  const std::vector<double> a =
      map_of([](double x, double y) { return std::exp(-(x * x + y * y)) * (1.0 + 0.3 * x); });
  const std::vector<double> unscaled = frame(spec(), "", npy(dir, "a", a));
  for (const double scale : {1e17, 1e-30, 1e300}) {
    std::vector<double> scaled = a;
    for (double& v : scaled) v *= scale;
    SCOPED_TRACE(scale);
    EXPECT_LE(relative_l2(frame(spec(), "", npy(dir, "scaled", scaled)), unscaled),
              backend_tolerance(precision()));
  }
}

// Odd Seidel powers multiply a rho-table by rho; single precision took rho in float, whose
// relative error times 1000 waves is 1e-4 waves. Single must agree with double.
TEST_P(Accepted, OddSeidelPowersOfManyWavesInSinglePrecision) {
  if (precision() == Precision::double_) GTEST_SKIP() << "single against double";
  RunSpec s = spec();
  s.frames = {Aberration{{{1, 0, 1000.3}, {3, 0, 50.2}, {3, 2, 7.1}}, {}}};
  const std::vector<double> single = frame(s, "");
  s.precision = Precision::double_;
  EXPECT_LE(relative_l2(single, frame(s, "")), test::reference_tolerance(Precision::single));
}

INSTANTIATE_TEST_SUITE_P(All, Accepted,
                         ::testing::Combine(::testing::ValuesIn(test::compiled_backends()),
                                            ::testing::Values(Precision::single,
                                                              Precision::double_)),
                         [](const auto& info) { return test::backend_and_precision(info); });

// The RMS wavefront is piston-free: a piston of 123456.789 waves (Zernike or map) adds
// nothing. Before, it cancelled in sum A W^2 / sum A - mean^2 and gave 0.03 waves.
TEST(AcceptedRms, LargePistonLeavesTheRmsWavefront) {
  const SampledPupil facts(n, 2 * n, Grid::centered, 0.0);
  const auto rms = [&](const Aberration& t, const SampledPupil& f) {
    const WavefrontSums s = wavefront_sums(f, compile_phase(t));
    return metric::weighted_rms(s.a, s.aw, s.aw2);
  };
  const Aberration defocus{{}, {{4, 0.1}}};
  const double want = rms(defocus, facts);
  EXPECT_NEAR(rms(Aberration{{}, {{4, 0.1}, {1, 123456.789}}}, facts), want, 1e-9);
  const std::string dir = test::fresh_dir("rms_piston");
  ApertureSpec with_map;
  with_map.opd = npy(dir, "piston", std::vector<double>(static_cast<std::size_t>(n) * n, 1e9));
  read_pupil_maps(with_map);
  const SampledPupil mapped(n, 2 * n, Grid::centered, 0.0, with_map, 0.0, 1);
  EXPECT_NEAR(rms(defocus, mapped), want, 1e-9);
}

void expect_refused(const std::string& args, const std::vector<std::string>& mentions) {
  const std::string dir = test::fresh_dir("refused");
  const auto r = test::run_psfsim(args + " --backend cpu -o " + dir + "/out.h5");
  EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.stderr_text;
  EXPECT_EQ(r.stderr_text.rfind("psfsim: error: ", 0), 0u) << r.stderr_text;
  EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
  for (const std::string& m : mentions)
    EXPECT_NE(r.stderr_text.find(m), std::string::npos)
        << "want '" << m << "' in " << r.stderr_text;
  EXPECT_TRUE(test::folder_is_empty_of_outputs(dir)) << args;
}

void expect_accepted(const std::string& args) {
  const std::string dir = test::fresh_dir("accepted");
  const auto r = test::run_psfsim(args + " --backend cpu --quiet -o " + dir + "/out.h5");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.stderr_text;
}

// Doubles lie 2^-20 waves apart below 2^33 waves and 2^-19 beyond: a map value past it, in
// waves at the run's shortest wavelength, is refused before any work.
TEST(AcceptedCli, OpdMapsBeyondTwoToTheThirtyThreeWavesAreRefused) {
  const std::string dir = test::fresh_dir("opd_bound");
  std::vector<double> v(16 * 16, 0.25);
  v[3 * 16 + 5] = 8.6e9;  // just past 8589934592
  const std::string over = dir + "/over.npy";
  test::write_npy(over, {16, 16}, v);
  expect_refused("run --samples 16 --pupil-opd " + over,
                 {"--pupil-opd " + over, "8.6e+09 waves at row 3, column 5", "8589934592"});
  v[3 * 16 + 5] = 8.5e9;
  const std::string under = dir + "/under.npy";
  test::write_npy(under, {16, 16}, v);
  expect_accepted("run --samples 16 --pupil-opd " + under);
  // 4.3e12 nm is 8.6e9 waves at 500 nm.
  v[3 * 16 + 5] = 4.3e12;
  const std::string nm = dir + "/nm.npy";
  test::write_npy(nm, {16, 16}, v);
  expect_refused("run --samples 16 --wavelength 500nm --opd-units nm --pupil-opd " + nm,
                 {"--pupil-opd " + nm, "4.3e+12 nm", "waves at 500nm", "8589934592"});
}

// With --normalize none the frames are |E|^2 in the map's units: a peak (sum |A|)^2 beyond
// the precision's range is refused up front; peak normalization takes the same map.
TEST(AcceptedCli, AmplitudeBeyondThePrecisionUnderNormalizeNone) {
  const std::string dir = test::fresh_dir("amplitude_range");
  const std::string big = dir + "/big.npy", tiny = dir + "/tiny.npy";
  test::write_npy(big, {16, 16}, std::vector<double>(16 * 16, 1e17));
  test::write_npy(tiny, {16, 16}, std::vector<double>(16 * 16, 1e-30));
  for (const std::string& map : {big, tiny}) {
    expect_refused("run --samples 16 --normalize none --pupil-amplitude " + map,
                   {"--pupil-amplitude " + map, "single precision", "--precision double"});
    expect_accepted("run --samples 16 --normalize none --precision double --pupil-amplitude " +
                    map);
    expect_accepted("run --samples 16 --pupil-amplitude " + map);
  }
}

// A pixel's count must fit the precision: --photons, --background and --read-noise of 1e300
// are refused in single precision, naming the option; double holds them.
TEST(AcceptedCli, PhotonCountsBeyondThePrecisionAreRefused) {
  expect_refused("run --samples 16 --photons 1e300", {"--photons 1e+300", "3.4e+38"});
  expect_refused("run --samples 16 --photons 100 --background 1e300",
                 {"--background 1e+300", "3.4e+38"});
  expect_refused("run --samples 16 --photons 100 --read-noise 1e300",
                 {"--read-noise 1e+300", "3.4e+38"});
  expect_refused(
      "run --samples 16 --photons 1e308 --background 1e308 --read-noise 1e307 "
      "--precision double",
      {"--background 1e+308", "1.8e+308"});
  expect_accepted("run --samples 16 --photons 1e300 --read-noise 1e300 --precision double");
  expect_accepted("run --samples 16 --photons 1e30 --read-noise 1e30");
}

// Found when auditing: each was accepted, then failed in the backend or after the work.
TEST(AcceptedCli, SamplingTheBackendCannotComputeIsRefusedUpFront) {
  // The MFT's kernel phase passes 2^28 waves (the backend refused it, without the option).
  expect_refused("run --samples 16 --pixel-scale 1e7lod", {"--pixel-scale 1e+07lod", "too coarse"});
  // The detector stage touched 2 x 16 GiB of output buffers before any memory check.
  expect_refused("run --samples 16 --crop 65536 --oversample 16",
                 {"--crop 65536 --oversample 16", "host memory"});
  // Eighteen decades of wavelength: the frame weights (lambda_ref/lambda_k)^2 pass float.
  expect_refused(
      "run --samples 16 --band 1e-12m-1e6m,3 --diameter 1m --pixel-scale 1e-9arcsec "
      "--crop 8",
      {"--band 1e-12m-1e6m,3", "single precision", "--precision double"});
  expect_accepted(
      "run --samples 16 --band 1e-12m-1e6m,3 --diameter 1m --pixel-scale 1e-9arcsec "
      "--crop 8 --precision double");
}

// High Zernike orders cancel large coefficients in the polynomial both precisions evaluate
// in double: a frame whose rounding passes 1e-6 waves is refused, naming the term's limit.
TEST(AcceptedCli, PhasesRoundingBeyondTheResolutionAreRefused) {
  const double limit = phase_resolution_waves / zernike_rounding(301);
  EXPECT_GT(limit, 3.0);
  EXPECT_LT(limit, 10.0);
  expect_refused("run --samples 16 --zernike 301,10",
                 {"--zernike 301,10", "Noll Z301 takes at most", "1e-06 waves"});
  expect_refused("run --samples 16 --vary Z301,0,10,5", {"--vary Z301,0,10,5", "frame 2"});
  expect_accepted("run --samples 16 --zernike 301,3");
  expect_accepted("run --samples 16 --zernike 11,1e6");
}

// The rounding estimate bounds the actual error of the monomial form against the radial
// formula in long double: spot checks where the cancellation is largest.
TEST(AcceptedRounding, EstimateBoundsTheError) {
  for (const int j : {11, 79, 137, 211, 254, 301}) {
    SCOPED_TRACE(j);
    const auto [order, m] = noll_to_nm(j);
    ASSERT_EQ(m, 0);
    Aberration t;
    t.zernike.push_back({j, 1.0});
    const AberrationPolynomial p = compile_phase(t);
    // As the backends evaluate it: the rows' polynomials in x from Horner in y, then in x.
    const auto horner = [&](double x, double y) {
      const int s = p.stride();
      double w = 0.0;
      for (int a = s - 1; a >= 0; --a) {
        double row = 0.0;
        for (int b = s - 1; b >= 0; --b) row = row * y + p.plain[a * s + b];
        w = w * x + row;
      }
      return w;
    };
    double worst = 0.0;
    for (int i = 0; i <= 200; ++i) {
      const long double rho = i / 200.0L;
      long double radial = 0.0L;
      for (int k = 0; k <= order / 2; ++k)
        radial += (k % 2 == 0 ? 1 : -1) * std::tgamma(static_cast<long double>(order - k + 1)) /
                  (std::tgamma(k + 1.0L) * std::pow(std::tgamma(order / 2.0L - k + 1), 2)) *
                  std::pow(rho, static_cast<long double>(order - 2 * k));
      const long double want = std::sqrt(order + 1.0L) * radial;
      const double x = static_cast<double>(rho * 0.6L), y = static_cast<double>(rho * 0.8L);
      worst = std::max(worst, static_cast<double>(std::fabs(horner(x, y) - want)));
    }
    EXPECT_LE(worst, zernike_rounding(j));
    EXPECT_GE(worst, zernike_rounding(j) / 100);  // and not far above it (0.05 to 0.3 here)
  }
}

// HDF5 attributes hold 64 KiB: the spectrum is /spectrum's datasets, so the documented
// 10000 wavelengths of --band are written (4 samples, 1 pixel, one thread: a second's work).
TEST(AcceptedCli, BandOfTenThousandWavelengthsIsWrittenAsDatasets) {
  const std::string dir = test::fresh_dir("band");
  const std::string out = dir + "/band.h5";
  const auto r = test::run_psfsim(
      "run --samples 4 --crop 1 --threads 1 --backend cpu --quiet "
      "--band 1um-2um,10000 --diameter 1m --pixel-scale 0.1arcsec "
      "-o " +
      out);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const test::H5Snapshot f = test::read_h5(out);
  const std::vector<double>& wavelengths = f.datasets.at("/spectrum/wavelength_m");
  const std::vector<double>& weights = f.datasets.at("/spectrum/weight");
  ASSERT_EQ(wavelengths.size(), 10000u);
  ASSERT_EQ(weights.size(), 10000u);
  EXPECT_EQ(wavelengths.front(), 1e-6);
  EXPECT_EQ(wavelengths.back(), 2e-6);
  EXPECT_DOUBLE_EQ(wavelengths[5000], 1e-6 + 1e-6 * 5000 / 9999);
  EXPECT_NEAR(std::accumulate(weights.begin(), weights.end(), 0.0), 1.0, 1e-12);
  EXPECT_EQ(f.attributes.at("/spectrum/wavelength_m@units"), "m");
  EXPECT_EQ(f.attributes.count("/psf@wavelengths_m"), 0u);
  EXPECT_EQ(f.attributes.count("/psf@wavelength_m"), 1u);
}

}  // namespace
}  // namespace psfsim

// The angular-spectrum propagator between two planes (cpu/src/angular_spectrum.hpp,
// docs/physical-optics.md): its transfer function against the formula in long double, its
// range against the closed form, energy (Parseval), z = 0, there and back, and the on-axis
// intensity behind a circular aperture against the Fresnel formula and the exact
// Rayleigh-Sommerfeld value, in float and double.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#include "../cpu/src/angular_spectrum.hpp"
#include "../cpu/src/fftw_api.hpp"
#include "psfsim/angular_spectrum_grid.hpp"
#include "psfsim/errors.hpp"

namespace psfsim::cpu {
namespace {

constexpr double pi = std::numbers::pi;
constexpr double um = 1e-6;

template <typename T>
using Field = std::vector<std::complex<T>>;

template <typename T>
double energy(const Field<T>& f) {
  double e = 0.0;
  for (const auto& v : f) e += std::norm(std::complex<double>(v));
  return e;
}

template <typename T>
double relative_difference(const Field<T>& a, const Field<T>& b) {
  double d = 0.0, n = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d += std::norm(std::complex<double>(a[i]) - std::complex<double>(b[i]));
    n += std::norm(std::complex<double>(b[i]));
  }
  return std::sqrt(d / n);
}

// A Gaussian beam exp(-r^2/w^2) (waist w samples) at the centre of an N x N grid, with a tilt
// of `cycles` across the grid so that the field is complex.
template <typename T>
Field<T> gaussian(int n, double w, double cycles) {
  Field<T> f(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double x = c - n / 2, y = r - n / 2;
      f[static_cast<std::size_t>(r) * n + c] = std::complex<T>(
          std::polar(std::exp(-(x * x + y * y) / (w * w)), 2 * pi * cycles * (x + 0.5 * y) / n));
    }
  return f;
}

template <typename T>
class AngularSpectrumTest : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(AngularSpectrumTest, Precisions);

// Energy tolerance: |H| = 1 on every frequency of a grid with no evanescent part, so only the
// two transforms' rounding is left.
template <typename T>
constexpr double rounding = std::is_same_v<T, float> ? 2e-6 : 1e-12;

// H = exp(2 pi i z sqrt(1/lambda^2 - f^2)) in FFT order, against the formula in long double;
// the evanescent part is 0.
TEST(AngularSpectrumGrid, TransferIsTheFormulaAndDropsTheEvanescentPart) {
  for (const double pitch : {2 * um, 0.3 * um}) {  // 0.3 um: the grid's corners are evanescent
    const AngularSpectrumGrid g{16, 32, pitch, 0.5 * um, 3e-4};
    const auto h = angular_spectrum_transfer(g, 0.5);
    int evanescent = 0;
    for (int ky = 0; ky < 32; ++ky)
      for (int kx = 0; kx < 32; ++kx) {
        const long double fx = (kx < 16 ? kx : kx - 32) / (32.0L * pitch);
        const long double fy = (ky < 16 ? ky : ky - 32) / (32.0L * pitch);
        const long double root2 = 1 / (0.5e-6L * 0.5e-6L) - fx * fx - fy * fy;
        const std::complex<double> v = h[static_cast<std::size_t>(ky) * 32 + kx];
        if (root2 <= 0) {
          EXPECT_EQ(v, std::complex<double>{});
          ++evanescent;
          continue;
        }
        const long double turns = 3e-4L * std::sqrt(root2);
        const long double angle = 2 * std::numbers::pi_v<long double> * (turns - std::round(turns));
        EXPECT_NEAR(v.real(), 0.5 * static_cast<double>(std::cos(angle)), 1e-9);
        EXPECT_NEAR(v.imag(), 0.5 * static_cast<double>(std::sin(angle)), 1e-9);
      }
    EXPECT_EQ(evanescent > 0, pitch < 0.5 * um / std::sqrt(2.0)) << pitch;
  }
}

// Where the whole grid propagates and M >= 2N the reach is M dx^2 sqrt(1 - lambda^2/(2 dx^2))
// / lambda (H's phase steps pi between samples at the grid's corner); with M < 2N it is
// (M - N) dx / t, the spread that wraps into the crop.
TEST(AngularSpectrumGrid, ReachIsTheClosedFormAndBeyondItIsRefused) {
  const double dx = 10 * um, lambda = 0.5 * um;
  const double corner = std::sqrt(1 - lambda * lambda / (2 * dx * dx));
  AngularSpectrumGrid g{192, 2048, dx, lambda, 0.0};
  const double reach = 2048 * dx * dx * corner / lambda;
  EXPECT_NEAR(angular_spectrum_reach(g), reach, 1e-12 * reach);
  AngularSpectrumGrid narrow{192, 256, dx, lambda, 0.0};
  const double tangent = lambda / (2 * dx) / corner;
  EXPECT_NEAR(angular_spectrum_reach(narrow), 64 * dx / tangent, 1e-12 * reach);
  EXPECT_EQ(angular_spectrum_reach(AngularSpectrumGrid{64, 64, dx, lambda, 0.0}), 0.0);

  g.distance_m = -0.999 * reach;  // backwards, as far
  EXPECT_NO_THROW(check_angular_spectrum(g));
  g.distance_m = 1.001 * reach;
  try {
    check_angular_spectrum(g);
    ADD_FAILURE() << "no error beyond the reach";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the distance 409.7"), std::string::npos) << what;
    EXPECT_NE(what.find("is beyond the 409.3"), std::string::npos) << what;
    EXPECT_NE(what.find("more than pi between samples"), std::string::npos) << what;
  }
  narrow.distance_m = 1.0;
  EXPECT_THROW(check_angular_spectrum(narrow), InputError);
  EXPECT_THROW(check_angular_spectrum(AngularSpectrumGrid{64, 63, dx, lambda, 0.0}), InputError);
  EXPECT_THROW(check_angular_spectrum(AngularSpectrumGrid{64, 128, -dx, lambda, 0.0}), InputError);
  EXPECT_THROW(check_angular_spectrum(AngularSpectrumGrid{64, 128, dx, lambda, NAN}), InputError);
  EXPECT_THROW((AngularSpectrum<double>(AngularSpectrumGrid{64, 128, dx, lambda, 1.0})),
               InputError);
}

TYPED_TEST(AngularSpectrumTest, ZeroDistanceIsTheIdentity) {
  using T = TypeParam;
  AngularSpectrum<T> still(AngularSpectrumGrid{48, 96, 0.3 * um, 0.5 * um, 0.0});
  const Field<T> in = gaussian<T>(48, 6, 5);
  Field<T> out(in.size());
  still.propagate(in.data(), out.data());
  EXPECT_EQ(out, in);
  Field<T> same = in;
  still.propagate(same.data(), same.data());
  EXPECT_EQ(same, in);
  // And the limit: over a femtometre, with no evanescent part, e^{ikz} is left, to the
  // phase pi z lambda f^2 <= 4e-10 rad that H adds at the grid's corner, f^2 = 1/(2 dx^2).
  const double z = 1e-15, lambda = 0.5 * um, dx = 2 * um;
  AngularSpectrum<T> tiny(AngularSpectrumGrid{48, 96, dx, lambda, z});
  tiny.propagate(in.data(), out.data());
  Field<T> phased = in;
  for (auto& v : phased) v *= std::complex<T>(std::polar(1.0, 2 * pi * z / lambda));
  EXPECT_LE(relative_difference(out, phased), rounding<T> + pi * z * lambda / (2 * dx * dx));
}

// A Gaussian beam of waist 8 samples (16 um), on an odd padded grid (M = 255), spreads to
// 1.4 times that over 1.5 mm (its Rayleigh range is 1.6 mm) and stays far inside the
// 128-sample crop: |H| = 1 everywhere (no frequency of a 2 um grid is evanescent at 0.5 um),
// so its energy is kept, and -z brings the field back.
TYPED_TEST(AngularSpectrumTest, EnergyIsKeptAndMinusZUndoesZ) {
  using T = TypeParam;
  const Field<T> in = gaussian<T>(128, 8, 7);
  Field<T> out(in.size()), back(in.size());
  AngularSpectrum<T> forth(AngularSpectrumGrid{128, 255, 2 * um, 0.5 * um, 1.5e-3});
  AngularSpectrum<T> backwards(AngularSpectrumGrid{128, 255, 2 * um, 0.5 * um, -1.5e-3});
  forth.propagate(in.data(), out.data());
  EXPECT_NEAR(energy(out) / energy(in), 1.0, rounding<T>);
  EXPECT_GT(relative_difference(out, in), 0.3);  // it did move
  backwards.propagate(out.data(), back.data());
  EXPECT_LE(relative_difference(back, in), 10 * rounding<T>);
  // In place, the same bits.
  Field<T> same = in;
  forth.propagate(same.data(), same.data());
  EXPECT_EQ(same, out);
}

// The disk of radius A samples made band-limited: its analytic spectrum A J1(2 pi A f)/f (f in
// cycles per sample) times a window that is 1 to half the Nyquist frequency and falls as cos^2
// to 0 at 0.9 of it, sampled by an L x L DFT and cut to N x N about the centre. A 0/1 disk
// aliases its edge (errors of 1e-3 from a = 64 samples up), an area-weighted one blurs it and
// weakens the edge wave; this one passes every frequency the on-axis field takes from the
// edge (about N_F/a, up to N_F = A/6) unchanged. Its ripples beyond the N x N window are
// below 2e-5.
Field<double> band_limited_disk(int n, double a) {
  constexpr int l = 1024;
  const auto window = [](double f) {
    constexpr double f1 = 0.25, f2 = 0.45;  // cycles per sample: 0.5 and 0.9 of Nyquist
    if (f <= f1) return 1.0;
    if (f >= f2) return 0.0;
    const double c = std::cos(pi / 2 * (f - f1) / (f2 - f1));
    return c * c;
  };
  // The spectrum depends on |k_x| and |k_y| alone: one quadrant, mirrored.
  std::vector<double> quadrant(static_cast<std::size_t>(l / 2 + 1) * (l / 2 + 1));
  for (int ky = 0; ky <= l / 2; ++ky)
    for (int kx = 0; kx <= l / 2; ++kx) {
      const double f = std::hypot(kx, ky) / l;
      const double disk = f > 0 ? a * std::cyl_bessel_j(1.0, 2 * pi * a * f) / f : pi * a * a;
      quadrant[static_cast<std::size_t>(ky) * (l / 2 + 1) + kx] =
          disk * window(f) / (double(l) * l);
    }
  FftwArray<std::complex<double>> spectrum(static_cast<std::size_t>(l) * l);
  const auto magnitude = [](int k) { return k <= l / 2 ? k : l - k; };
  for (int ky = 0; ky < l; ++ky)
    for (int kx = 0; kx < l; ++kx)
      spectrum.data()[static_cast<std::size_t>(ky) * l + kx] =
          quadrant[static_cast<std::size_t>(magnitude(ky)) * (l / 2 + 1) + magnitude(kx)];
  const fftw_iodim dims[2] = {{l, l, l}, {l, 1, 1}};
  const FftwPlan<double> plan(FftwApi<double>::plan_guru(2, dims, 0, nullptr, spectrum.data(),
                                                         spectrum.data(), FFTW_ESTIMATE));
  plan.execute(spectrum.data(), spectrum.data());  // real and even: forward is inverse
  Field<double> out(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const int y = ((r - n / 2) % l + l) % l, x = ((c - n / 2) % l + l) % l;
      out[static_cast<std::size_t>(r) * n + c] =
          spectrum.data()[static_cast<std::size_t>(y) * l + x].real();
    }
  return out;
}

// Behind a uniformly lit circular aperture of radius a = 64 samples of 10 um, at 500 nm, the
// on-axis intensity is 4 I0 sin^2(pi N_F/2), N_F = a^2/(lambda z), in the Fresnel
// approximation: within 1e-3 for N_F from 2.5 to 10 (z = 328 to 82 mm). Below 2.5 the
// distance passes the reach of M = 2048 (N_F >= a^2/(M dx^2) = 2.0); above 10 the edge's
// Fresnel zones reach the disk's band limit. The exact (Rayleigh-Sommerfeld) on-axis value
// |e^{ikz} - z/sqrt(z^2 + a^2) e^{ik sqrt(z^2 + a^2)}|^2, which the angular spectrum computes
// without the Fresnel approximation, is met to 3e-4 (the Fresnel formula's own error, up to
// 4e-4 rad of the edge wave's phase at N_F = 10, is most of the 1e-3).
TYPED_TEST(AngularSpectrumTest, OnAxisIntensityBehindACircularAperture) {
  using T = TypeParam;
  constexpr int samples = 64, n = 2 * samples + 64, m = 2048;
  const double dx = 10 * um, lambda = 0.5 * um, a = samples * dx;
  const Field<double> disk = band_limited_disk(n, samples);
  Field<T> in(disk.size()), out(disk.size());
  for (std::size_t i = 0; i < disk.size(); ++i) in[i] = std::complex<T>(disk[i]);
  const std::size_t axis = static_cast<std::size_t>(n / 2) * n + n / 2;
  // Every half Fresnel number in double; single, which rounds the same way, at four.
  std::vector<double> numbers{2.5, 5.5, 7.5, 10};
  if (std::is_same_v<T, double>)
    for (double f = 3; f < 10; f += 0.5) numbers.push_back(f);
  for (const double fresnel : numbers) {
    SCOPED_TRACE("N_F = " + std::to_string(fresnel));
    const double z = a * a / (lambda * fresnel);
    AngularSpectrum<T> propagator(AngularSpectrumGrid{n, m, dx, lambda, z});
    propagator.propagate(in.data(), out.data());
    const double intensity = std::norm(std::complex<double>(out[axis]));
    const double fresnel_value = 4 * std::pow(std::sin(pi * fresnel / 2), 2);
    EXPECT_NEAR(intensity, fresnel_value, 1e-3);
    // |e^{ikz} - (z/s) e^{iks}|^2 with s = sqrt(z^2 + a^2) and s - z = a^2/(s + z).
    const double slant = std::hypot(z, a);
    const std::complex<double> exact =
        1.0 - z / slant * std::polar(1.0, 2 * pi / lambda * (a * a / (slant + z)));
    EXPECT_NEAR(intensity, std::norm(exact), 3e-4);
  }
}

// The single-precision propagator against the double one, both within the range.
TEST(AngularSpectrum, SingleAgreesWithDouble) {
  const AngularSpectrumGrid g{96, 200, 1 * um, 0.6 * um, 2e-4};
  const Field<double> in = gaussian<double>(96, 9, 11);
  Field<float> in_f(in.size()), out_f(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) in_f[i] = std::complex<float>(in[i]);
  Field<double> out(in.size());
  AngularSpectrum<double>(g).propagate(in.data(), out.data());
  AngularSpectrum<float>(g).propagate(in_f.data(), out_f.data());
  Field<double> widened(out_f.begin(), out_f.end());
  EXPECT_LE(relative_difference(widened, out), 1e-5);
}

}  // namespace
}  // namespace psfsim::cpu

// The CPU MFT engine (cpu/src/mft_propagator.*), float and double: against docs/spec.md §6's double
// sum evaluated directly, against the FFT path's central crop at the FFT's pixel scale, and
// its batching, threading and support arguments against itself.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <utility>
#include <vector>

#include "../cpu/src/mft_propagator.hpp"
#include "psfsim/errors.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

using cpu::MftPropagator;
using cpu::MftSupport;

template <typename Real>
constexpr Precision precision_of = sizeof(Real) == sizeof(float) ? Precision::single
                                                                 : Precision::double_;

template <typename Real>
class Mft : public ::testing::Test {};
using Reals = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Mft, Reals);

// x_i of docs/spec.md §1, written here rather than taken from psfsim.
double coordinate(int i, int n, Grid grid) {
  if (grid == Grid::centered) return (i - n / 2.0) * (2.0 / n);
  return i == n - 1 ? 1.0 : -1.0 + i * (2.0 / (n - 1));
}

// A smooth complex field on the disk of radius `radius`: an apodized amplitude and a phase
// with odd and even terms in x and y, so that a flipped or transposed image shows. `frame`
// varies the phase between frames of a batch.
std::vector<std::complex<double>> smooth_pupil(int n, Grid grid, int frame = 0,
                                               double radius = 1.0) {
  std::vector<std::complex<double>> p(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double x = coordinate(c, n, grid);
      const double y = coordinate(r, n, grid);
      if (std::sqrt(x * x + y * y) > radius) continue;
      const double amplitude = 1.0 + 0.3 * x - 0.2 * y * y;
      const double waves = 0.4 * x * y + 0.3 * (x * x + y * y) + 0.15 * x * x * x - 0.25 * y +
                           0.1 * frame * (x - 2.0 * y * y);
      p[static_cast<std::size_t>(r) * n + c] = std::polar(amplitude, 2.0 * M_PI * waves);
    }
  return p;
}

// Frames 0 .. count - 1 of smooth_pupil, one after another.
std::vector<std::complex<double>> smooth_pupils(int n, Grid grid, int count, double radius = 1.0) {
  std::vector<std::complex<double>> pupils;
  for (int f = 0; f < count; ++f) {
    const auto p = smooth_pupil(n, grid, f, radius);
    pupils.insert(pupils.end(), p.begin(), p.end());
  }
  return pupils;
}

// The pupil of the FFT path for Seidel terms, as test_support's direct_dft_psf builds it.
std::vector<std::complex<double>> seidel_pupil(int n, Grid grid, const Aberration& terms) {
  std::vector<std::complex<double>> p(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double x = coordinate(c, n, grid);
      const double y = coordinate(r, n, grid);
      const double rho = std::sqrt(x * x + y * y);
      if (rho > 1.0) continue;
      const double phi = std::atan2(y, x);
      double w = 0.0;
      for (const auto& s : terms.seidel)
        w += s.waves * std::pow(rho, s.l) * std::pow(std::cos(phi), s.m);
      p[static_cast<std::size_t>(r) * n + c] = std::polar(1.0, 2.0 * M_PI * w);
    }
  return p;
}

// |E|^2 of docs/spec.md §6 by its double sum, term by term in long double, with output index
// `centre` on the optical axis (below 0: floor(K/2), as §6 writes it).
std::vector<double> direct_mft(const std::vector<std::complex<double>>& pupil, int n, int k,
                               double s, Grid grid, double centre = -1.0) {
  const long double c0 = centre >= 0.0 ? centre : k / 2;
  using L = long double;
  const L two_pi = 2 * 3.141592653589793238462643383279502884L;
  std::vector<double> out(static_cast<std::size_t>(k) * k);
  for (int u = 0; u < k; ++u)
    for (int v = 0; v < k; ++v) {
      const L theta_u = (u - c0) * s;
      const L theta_v = (v - c0) * s;
      L re = 0;
      L im = 0;
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
          const std::complex<double> p = pupil[static_cast<std::size_t>(r) * n + c];
          if (p == 0.0) continue;
          const L xi_r = static_cast<L>(coordinate(r, n, grid)) / 2;
          const L xi_c = static_cast<L>(coordinate(c, n, grid)) / 2;
          const L angle = -two_pi * (theta_v * xi_c + theta_u * xi_r);
          const L cs = std::cos(angle);
          const L sn = std::sin(angle);
          re += p.real() * cs - p.imag() * sn;
          im += p.real() * sn + p.imag() * cs;
        }
      out[static_cast<std::size_t>(u) * k + v] = static_cast<double>(re * re + im * im);
    }
  return out;
}

template <typename Real>
std::vector<std::complex<Real>> narrow(const std::vector<std::complex<double>>& v) {
  return {v.begin(), v.end()};
}

// Frame `f` of `count` K x K frames, widened.
template <typename Real>
std::vector<double> frame_of(const std::vector<Real>& frames, int k, int f) {
  const auto first = frames.begin() + static_cast<std::ptrdiff_t>(f) * k * k;
  return {first, first + static_cast<std::ptrdiff_t>(k) * k};
}

std::string describe(int n, int k, double s, Grid grid) {
  return "N=" + std::to_string(n) + " K=" + std::to_string(k) + " s=" + std::to_string(s) + " " +
         std::string(to_string(grid));
}

TYPED_TEST(Mft, MatchesTheDirectSum) {
  using Real = TypeParam;
  const double tolerance = reference_tolerance(precision_of<Real>);
  constexpr int count = 3;  // more frames than threads: the frames-in-parallel path
  for (const Grid grid : {Grid::centered, Grid::linspace})
    for (const int n : {16, 17})
      for (const int k : {7, 8, 15})
        for (const double s : {0.37, 1.3}) {
          const std::vector<std::complex<double>> pupils = smooth_pupils(n, grid, count);
          const auto input = narrow<Real>(pupils);
          std::vector<Real> out(static_cast<std::size_t>(count) * k * k);
          MftPropagator<Real> mft(n, k, s, grid, 2);
          mft.propagate(input.data(), count, out.data(), Real(0.25));
          for (int f = 0; f < count; ++f) {
            const std::vector<std::complex<double>> one(
                pupils.begin() + static_cast<std::ptrdiff_t>(f) * n * n,
                pupils.begin() + static_cast<std::ptrdiff_t>(f + 1) * n * n);
            std::vector<double> reference = direct_mft(one, n, k, s, grid);
            for (double& v : reference) v *= 0.25;
            EXPECT_LE(relative_l2(frame_of(out, k, f), reference), tolerance)
                << describe(n, k, s, grid) << " frame " << f;
          }
        }
}

TYPED_TEST(Mft, MatchesTheDirectSumAboutAnyPixelCentre) {
  // An oversampled detector's sub-pixels put the optical axis between output samples.
  using Real = TypeParam;
  const double tolerance = reference_tolerance(precision_of<Real>);
  const int n = 16;
  for (const Grid grid : {Grid::centered, Grid::linspace})
    for (const auto& [k, centre] : {std::pair{8, 3.5}, std::pair{9, 4.25}, std::pair{6, 0.0}}) {
      const auto pupil = smooth_pupil(n, grid);
      const auto input = narrow<Real>(pupil);
      std::vector<Real> out(static_cast<std::size_t>(k) * k);
      MftPropagator<Real> mft(n, k, 0.37, grid, 1, centre);
      mft.propagate(input.data(), 1, out.data(), Real(1));
      EXPECT_LE(relative_l2(frame_of(out, k, 0), direct_mft(pupil, n, k, 0.37, grid, centre)),
                tolerance)
          << describe(n, k, 0.37, grid) << " centre " << centre;
    }
}

TYPED_TEST(Mft, EqualsTheFftCropAtTheFftPixelScale) {
  using Real = TypeParam;
  const Precision precision = precision_of<Real>;
  const Aberration terms{{{2, 1, 1.0}, {3, 1, 0.4}, {4, 0, -0.3}, {2, 0, 0.2}}, {}};
  const std::vector<Case> cases{
      make_case(16, 32, Grid::centered, Normalization::none, 8, 0.0, terms),
      make_case(16, 32, Grid::centered, Normalization::none, 32, 0.0, terms),  // K = M
      make_case(17, 41, Grid::centered, Normalization::none, 9, 0.0, terms),   // odd N, M, K
      make_case(15, 40, Grid::linspace, Normalization::none, 21, 0.0, terms),  // odd N, K
      make_case(16, 37, Grid::linspace, Normalization::none, 14, 0.0, terms),  // odd M
  };
  for (const Case& c : cases) {
    const int n = c.samples;
    const int k = c.crop;
    const double s = (c.grid == Grid::centered ? n : n - 1) / static_cast<double>(c.padded);
    const auto pupil = narrow<Real>(seidel_pupil(n, c.grid, c.terms));
    std::vector<Real> out(static_cast<std::size_t>(k) * k);
    MftPropagator<Real> mft(n, k, s, c.grid, 1);
    mft.propagate(pupil.data(), 1, out.data(), Real(1));
    const std::vector<double> psf(out.begin(), out.end());
    const std::string what = describe(n, k, s, c.grid) + " M=" + std::to_string(c.padded);
    // The CPU backend's FFT path in the same precision, and the float64 direct DFT of §1.
    EXPECT_LE(relative_l2(psf, compute_frame("cpu", c, precision)), reference_tolerance(precision))
        << what;
    EXPECT_LE(relative_l2(psf, direct_dft_psf(c)), reference_tolerance(precision)) << what;
  }
}

TYPED_TEST(Mft, BatchesAndThreadCountsGiveTheSameFrames) {
  using Real = TypeParam;
  const double tolerance = batching_tolerance(precision_of<Real>);
  const int n = 24;
  const int k = 12;
  // Not a multiple of the threads or of the blocks, and enough frames for blocks of more
  // than one frame (one GEMM over stacked pupils) with one, two and three threads.
  const int count = 19;
  const auto pupils = narrow<Real>(smooth_pupils(n, Grid::centered, count));
  const std::size_t frame = static_cast<std::size_t>(k) * k;
  MftPropagator<Real> one_thread(n, k, 0.8, Grid::centered, 1);
  std::vector<Real> singles(count * frame);
  for (int f = 0; f < count; ++f)
    one_thread.propagate(pupils.data() + static_cast<std::size_t>(f) * n * n, 1,
                         singles.data() + f * frame, Real(1));
  for (const int threads : {1, 2, 3, 8}) {
    MftPropagator<Real> mft(n, k, 0.8, Grid::centered, threads);
    std::vector<Real> batch(count * frame, Real(-1));  // every element must be rewritten
    mft.propagate(pupils.data(), count, batch.data(), Real(1));
    for (int f = 0; f < count; ++f)
      EXPECT_LE(relative_l2(frame_of(batch, k, f), frame_of(singles, k, f)), tolerance)
          << threads << " threads, frame " << f;
  }
}

// Fewer frames than threads: each frame's products split by rows over the team (large
// enough a frame, N = 64, K = 40: above the split's threshold), with and without a support.
TYPED_TEST(Mft, FewerFramesThanThreadsSplitEachFrameByRows) {
  using Real = TypeParam;
  const double tolerance = batching_tolerance(precision_of<Real>);
  const int n = 64;
  const int k = 40;
  const int count = 2;
  const auto pupils = narrow<Real>(smooth_pupils(n, Grid::centered, count, 0.7));
  const std::size_t frame = static_cast<std::size_t>(k) * k;
  const MftSupport box{5, 59, 6, 60};  // holds every non-zero sample of the 0.7 aperture
  MftPropagator<Real> one_thread(n, k, 0.45, Grid::centered, 1);
  std::vector<Real> expected(count * frame);
  one_thread.propagate(pupils.data(), count, expected.data(), Real(2));
  for (const int threads : {3, 8}) {
    MftPropagator<Real> mft(n, k, 0.45, Grid::centered, threads);
    for (const bool boxed : {false, true}) {
      std::vector<Real> split(count * frame, Real(-1));  // every element must be rewritten
      if (boxed) mft.propagate(pupils.data(), count, split.data(), Real(2), box);
      else mft.propagate(pupils.data(), count, split.data(), Real(2));
      for (int f = 0; f < count; ++f)
        EXPECT_LE(relative_l2(frame_of(split, k, f), frame_of(expected, k, f)), tolerance)
            << threads << " threads, frame " << f << (boxed ? ", support" : "");
    }
  }
}

TYPED_TEST(Mft, SupportSkipsOnlyZeros) {
  using Real = TypeParam;
  const double tolerance = batching_tolerance(precision_of<Real>);
  const int n = 20;
  const int k = 11;
  const int count = 3;
  const auto pupils = narrow<Real>(smooth_pupils(n, Grid::linspace, count, 0.6));
  // The bounding box of the non-zero samples over all frames.
  MftSupport box{n, 0, n, 0};
  for (std::size_t i = 0; i < pupils.size(); ++i)
    if (pupils[i] != std::complex<Real>{}) {
      const int r = static_cast<int>(i / n % n);
      const int c = static_cast<int>(i % n);
      box = {std::min(box.row_lo, r), std::max(box.row_hi, r + 1), std::min(box.col_lo, c),
             std::max(box.col_hi, c + 1)};
    }
  ASSERT_GT(box.row_lo, 0);
  ASSERT_LT(box.row_hi, n);
  const std::size_t frame = static_cast<std::size_t>(k) * k;
  for (const int threads : {1, 2}) {
    MftPropagator<Real> mft(n, k, 0.6, Grid::linspace, threads);
    std::vector<Real> full(count * frame);
    std::vector<Real> cut(count * frame);
    mft.propagate(pupils.data(), count, full.data(), Real(1));
    mft.propagate(pupils.data(), count, cut.data(), Real(1), box);
    for (int f = 0; f < count; ++f)
      EXPECT_LE(relative_l2(frame_of(cut, k, f), frame_of(full, k, f)), tolerance)
          << threads << " threads, frame " << f;
    // A support that holds no sample gives dark frames.
    mft.propagate(pupils.data(), count, cut.data(), Real(1), MftSupport{0, n, 5, 5});
    for (const Real v : cut) EXPECT_EQ(v, Real(0));
  }
}

TYPED_TEST(Mft, RefusesWhatItCannotCompute) {
  using Real = TypeParam;
  EXPECT_THROW(MftPropagator<Real>(0, 8, 0.5, Grid::centered), InputError);
  EXPECT_THROW(MftPropagator<Real>(8, 0, 0.5, Grid::centered), InputError);
  EXPECT_THROW(MftPropagator<Real>(8, 8, std::nan(""), Grid::centered), InputError);
  EXPECT_THROW(MftPropagator<Real>(8, 8, 0.5, Grid::centered, 1, std::nan("")), InputError);
  EXPECT_THROW(MftPropagator<Real>(8, 8, 1e300, Grid::centered), InputError);
  MftPropagator<Real> mft(8, 4, 0.5, Grid::centered, 1);
  const std::vector<std::complex<Real>> pupil(64, std::complex<Real>(1));
  std::vector<Real> out(16);
  EXPECT_THROW(mft.propagate(pupil.data(), 1, out.data(), Real(1), MftSupport{0, 9, 0, 8}),
               InputError);
  EXPECT_THROW(mft.propagate(pupil.data(), 1, out.data(), Real(1), MftSupport{3, 2, 0, 8}),
               InputError);
  EXPECT_NO_THROW(mft.propagate(pupil.data(), 0, out.data(), Real(1)));
}

}  // namespace
}  // namespace psfsim::test

// Every backend against closed-form optics: the Airy ring, Parseval, Marechal, and the
// Strehl normalization. None of these references shares code with the pipeline.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "test_support.hpp"

namespace psfsim::test {
namespace {

class Analytic : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (const std::string why = skip_reason(GetParam()); !why.empty())
      GTEST_SKIP() << GetParam() << " backend: " << why;
  }
};

// Solves the small dense system a x = b in place (Gaussian elimination, partial pivoting).
std::vector<double> solve(std::vector<std::vector<double>> a, std::vector<double> b) {
  const std::size_t n = b.size();
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t pivot = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::fabs(a[i][k]) > std::fabs(a[pivot][k])) pivot = i;
    std::swap(a[k], a[pivot]);
    std::swap(b[k], b[pivot]);
    for (std::size_t i = k + 1; i < n; ++i) {
      const double f = a[i][k] / a[k][k];
      for (std::size_t j = k; j < n; ++j) a[i][j] -= f * a[k][j];
      b[i] -= f * b[k];
    }
  }
  std::vector<double> x(n);
  for (std::size_t k = n; k-- > 0;) {
    double v = b[k];
    for (std::size_t j = k + 1; j < n; ++j) v -= a[k][j] * x[j];
    x[k] = v / a[k][k];
  }
  return x;
}

// First zero of the azimuthally averaged PSF, in pixels. The field amplitude changes sign
// at a dark ring, so +sqrt(I) inside and -sqrt(I) outside the lowest radial bin is smooth
// through the zero: a least-squares cubic over +-1.5 px locates it to a small fraction of
// a pixel, far finer than the pixel grid.
double first_dark_ring(const std::vector<double>& image, int m, double r_lo, double r_hi) {
  const double bin = 0.02;  // narrower than the gap between distinct pixel radii
  const int bins = static_cast<int>(r_hi / bin) + 2;
  std::vector<double> sum(bins, 0.0), radius(bins, 0.0), count(bins, 0.0);
  const double centre = m / 2;
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < m; ++c) {
      const double d = std::hypot(r - centre, c - centre);
      if (d >= r_hi) continue;
      const int b = static_cast<int>(d / bin);
      sum[b] += image[r * m + c];
      radius[b] += d;
      count[b] += 1;
    }
  int lowest = -1;
  for (int b = 0; b < bins; ++b) {
    if (count[b] == 0 || radius[b] / count[b] < r_lo) continue;
    if (lowest < 0 || sum[b] / count[b] < sum[lowest] / count[lowest]) lowest = b;
  }
  const double r0 = radius[lowest] / count[lowest];
  std::vector<std::vector<double>> normal(4, std::vector<double>(4, 0.0));
  std::vector<double> rhs(4, 0.0);
  for (int b = 0; b < bins; ++b) {
    if (count[b] == 0 || b == lowest) continue;
    const double x = radius[b] / count[b] - r0;
    if (std::fabs(x) > 1.5) continue;
    const double amplitude = std::sqrt(sum[b] / count[b]) * (x < 0 ? 1.0 : -1.0);
    const double powers[4] = {1, x, x * x, x * x * x};
    for (int i = 0; i < 4; ++i) {
      rhs[i] += powers[i] * amplitude;
      for (int j = 0; j < 4; ++j) normal[i][j] += powers[i] * powers[j];
    }
  }
  const auto p = solve(normal, rhs);
  double x = 0.0;  // Newton from the lowest bin
  for (int it = 0; it < 50; ++it)
    x -= (p[0] + x * (p[1] + x * (p[2] + x * p[3]))) / (p[1] + x * (2 * p[2] + x * 3 * p[3]));
  return r0 + x;
}

TEST_P(Analytic, FirstDarkRingOfClearPupilAt1_2197LambdaOverD) {
  Case c;
  c.samples = 256;
  c.padded = 1024;
  const auto image = compute_frame(GetParam(), c, Precision::double_);
  const double expected = 1.2197 * c.padded / c.samples;  // 4.8788 px
  const double measured = first_dark_ring(image, c.padded, 0.6 * expected, 1.5 * expected);
  RecordProperty("first_dark_ring_px", std::to_string(measured));
  EXPECT_NEAR(measured, expected, 0.01 * expected);
}

TEST_P(Analytic, ParsevalSumEqualsMSquaredTimesApertureEnergy) {
  Case c;
  c.samples = 100;
  c.padded = 250;
  c.obscuration = 0.2;
  c.terms.zernike = {{4, 0.4}, {9, -0.3}, {12, 0.2}};
  c.terms.seidel = {{3, 1, 0.7}};
  const auto image = compute_frame(GetParam(), c, Precision::double_);
  double aperture = 0.0;  // sum of A^2 = sum of A, A in {0, 1}
  for (int r = 0; r < c.samples; ++r)
    for (int col = 0; col < c.samples; ++col) {
      const double x = (col - c.samples / 2.0) * 2.0 / c.samples;
      const double y = (r - c.samples / 2.0) * 2.0 / c.samples;
      const double rho = std::sqrt(x * x + y * y);
      aperture += (rho <= 1.0 && rho >= c.obscuration) ? 1.0 : 0.0;
    }
  const double total = std::accumulate(image.begin(), image.end(), 0.0);
  const double expected = static_cast<double>(c.padded) * c.padded * aperture;
  EXPECT_NEAR(total / expected, 1.0, 1e-12);
}

TEST_P(Analytic, StrehlOfSmallAberrationFollowsMarechal) {
  Case c;
  c.samples = 256;
  c.padded = 512;
  c.normalization = Normalization::peak;
  std::mt19937_64 rng(20261129);
  std::normal_distribution<double> normal(0.0, 1.0);
  // Tip and tilt move the peak off the centre and piston does nothing: j = 4..21.
  double norm2 = 0.0;
  for (int j = 4; j <= 21; ++j) {
    c.terms.zernike.push_back({j, normal(rng)});
    norm2 += c.terms.zernike.back().waves * c.terms.zernike.back().waves;
  }
  const double sigma = 0.02;
  for (auto& t : c.terms.zernike) t.waves *= sigma / std::sqrt(norm2);
  const auto image = compute_frame(GetParam(), c, Precision::double_);
  const double strehl = image[(c.padded / 2) * c.padded + c.padded / 2];
  const double marechal = std::exp(-std::pow(2 * M_PI * sigma, 2));
  RecordProperty("strehl", std::to_string(strehl));
  EXPECT_NEAR(strehl, marechal, 0.01 * marechal);
}

TEST_P(Analytic, AberrationFreeCentreIsOneUnderPeakNormalization) {
  for (const Precision precision : {Precision::single, Precision::double_})
    for (const Grid grid : {Grid::centered, Grid::linspace})
      for (const auto& [n, m] : {std::pair{64, 128}, std::pair{64, 161}, std::pair{101, 202}}) {
        Case c;
        c.samples = n;
        c.padded = m;
        c.grid = grid;
        c.normalization = Normalization::peak;
        c.obscuration = 0.1;
        const auto image = compute_frame(GetParam(), c, precision);
        const double centre = image[(m / 2) * m + m / 2];
        EXPECT_NEAR(centre, 1.0, precision == Precision::single ? 1e-6 : 1e-12)
            << "N=" << n << " M=" << m << " grid=" << to_string(grid);
        EXPECT_EQ(*std::max_element(image.begin(), image.end()), centre);
      }
}

INSTANTIATE_TEST_SUITE_P(Backends, Analytic, ::testing::ValuesIn(compiled_backends()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace psfsim::test

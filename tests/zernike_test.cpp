// Noll indexing, the Cartesian expansion the backends evaluate, and orthonormality.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/zernike.hpp"

namespace psfsim {
namespace {

TEST(Zernike, NollIndexMatchesNollsTable) {
  // (n, m) of j = 1..22, R. J. Noll, JOSA 66 (1976), table 1; m < 0 is the sine term.
  const int expected[][2] = {{0, 0},  {1, 1}, {1, -1}, {2, 0}, {2, -2}, {2, 2}, {3, -1}, {3, 1},
                             {3, -3}, {3, 3}, {4, 0},  {4, 2}, {4, -2}, {4, 4}, {4, -4}, {5, 1},
                             {5, -1}, {5, 3}, {5, -3}, {5, 5}, {5, -5}, {6, 0}};
  for (int j = 1; j <= 22; ++j) {
    const auto [n, m] = noll_to_nm(j);
    EXPECT_EQ(n, expected[j - 1][0]) << "j=" << j;
    EXPECT_EQ(m, expected[j - 1][1]) << "j=" << j;
  }
}

TEST(Zernike, KnownClosedForms) {
  const double rho = 0.7, phi = 0.3;
  EXPECT_NEAR(zernike_polar(4, rho, phi), std::sqrt(3.0) * (2 * rho * rho - 1), 1e-15);
  EXPECT_NEAR(zernike_polar(11, rho, phi),
              std::sqrt(5.0) * (6 * std::pow(rho, 4) - 6 * rho * rho + 1), 1e-14);
  EXPECT_NEAR(zernike_polar(8, rho, phi),
              std::sqrt(8.0) * (3 * std::pow(rho, 3) - 2 * rho) * std::cos(phi), 1e-14);
}

TEST(Zernike, CartesianExpansionMatchesPolarFormUpToRadialOrder24) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int j = 1; j <= 325; ++j) {
    const AberrationPolynomial p = compile_phase(Aberration{{}, {{j, 1.0}}});
    double worst = 0.0;
    for (int k = 0; k < 50; ++k) {
      double x = u(rng), y = u(rng);
      if (x * x + y * y > 1) continue;
      const double polar = zernike_polar(j, std::hypot(x, y), std::atan2(y, x));
      worst = std::max(worst, std::fabs(p.evaluate(x, y) - polar));
    }
    // The expansion's cancellation grows with the order; 1e-6 waves is invisible in a PSF.
    EXPECT_LT(worst, noll_to_nm(j).n <= 10 ? 1e-11 : 1e-6) << "j=" << j;
  }
}

TEST(Zernike, OrthonormalOverTheDiskUpToJ36) {
  // Midpoint rule on a 1200 x 1200 grid over [-1, 1]^2, inside the unit disk.
  constexpr int grid = 1200;
  constexpr int count = 36;
  const double h = 2.0 / grid;
  std::vector<AberrationPolynomial> z;
  for (int j = 1; j <= count; ++j) z.push_back(compile_phase(Aberration{{}, {{j, 1.0}}}, 7));
  std::vector<double> gram(count * count, 0.0);
  std::vector<double> values(count);
  std::vector<double> row(8);
  for (int r = 0; r < grid; ++r) {
    const double y = -1 + (r + 0.5) * h;
    for (int c = 0; c < grid; ++c) {
      const double x = -1 + (c + 0.5) * h;
      if (x * x + y * y > 1) continue;
      for (int j = 0; j < count; ++j) {
        // Horner in y then x over the 8 x 8 table.
        const auto& t = z[j].plain;
        double v = 0.0;
        for (int a = 7; a >= 0; --a) {
          double cy = 0.0;
          for (int b = 7; b >= 0; --b) cy = cy * y + t[a * 8 + b];
          v = v * x + cy;
        }
        values[j] = v;
      }
      for (int i = 0; i < count; ++i)
        for (int j = i; j < count; ++j) gram[i * count + j] += values[i] * values[j];
    }
  }
  double worst = 0.0;
  for (int i = 0; i < count; ++i)
    for (int j = i; j < count; ++j) {
      const double inner = gram[i * count + j] * h * h / M_PI;
      worst = std::max(worst, std::fabs(inner - (i == j ? 1.0 : 0.0)));
    }
  RecordProperty("worst_gram_deviation", std::to_string(worst));
  EXPECT_LT(worst, 1e-3);
}

}  // namespace
}  // namespace psfsim

// Field-dependent aberrations against direct evaluations written here: Hopkins' rotated
// Seidel terms, the coma's mean wavefront slope (the geometric centroid shift) growing
// linearly with H along theta_H, and double Zernikes against an explicit double sum.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/field_aberration.hpp"

namespace psfsim {
namespace {

TEST(FieldAberration, RotatedSeidelTermsMatchDirectEvaluation) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int l = 0; l <= 8; ++l)
    for (int m = 0; m <= l; ++m) {
      const double a = std::numbers::pi * u(rng);
      const AberrationPolynomial p = compile_phase(Aberration{{{l, m, 0.6, a}}, {}});
      for (int k = 0; k < 20; ++k) {
        const double x = u(rng), y = u(rng);
        const double direct =
            0.6 * std::pow(std::hypot(x, y), l) * std::pow(std::cos(std::atan2(y, x) - a), m);
        EXPECT_NEAR(p.evaluate(x, y), direct, 1e-13) << "l=" << l << " m=" << m << " a=" << a;
      }
    }
}

// At 10 random field points, the frame's phase polynomial against `direct`(H, theta_H, rho,
// phi) at 20 random pupil points within `pupil_radius`.
template <typename Direct>
void expect_field_phase(const FieldAberrations& field, std::uint64_t seed, double pupil_radius,
                        double tolerance, Direct direct) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 10; ++trial) {
    const FieldPoint h{u(rng), u(rng)};
    const AberrationPolynomial p = compile_phase(pupil_terms(field, h));
    for (int k = 0; k < 20; ++k) {
      const double x = pupil_radius * u(rng), y = pupil_radius * u(rng);
      EXPECT_NEAR(
          p.evaluate(x, y),
          direct(std::hypot(h.x, h.y), std::atan2(h.y, h.x), std::hypot(x, y), std::atan2(y, x)),
          tolerance);
    }
  }
}

TEST(FieldAberration, SeidelFieldTermIsTheFixedTermAtThatPoint) {
  const FieldAberrations field{{{1, 3, 1, 0.4}, {2, 2, 2, -0.3}, {2, 2, 0, 0.2}}, {}};
  expect_field_phase(field, 7, 1.0, 1e-13, [](double hr, double th, double rho, double phi) {
    return 0.4 * hr * std::pow(rho, 3) * std::cos(phi - th) -
           0.3 * hr * hr * rho * rho * std::pow(std::cos(phi - th), 2) + 0.2 * hr * hr * rho * rho;
  });
}

// Mean slope of the wavefront over the unit disk, by a midpoint sum: the geometric centroid.
std::array<double, 2> mean_slope(const AberrationPolynomial& p) {
  constexpr int n = 200;
  constexpr double d = 1e-6;
  double sx = 0, sy = 0;
  int inside = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double x = -1 + (i + 0.5) * 2.0 / n, y = -1 + (j + 0.5) * 2.0 / n;
      if (x * x + y * y > 1) continue;
      sx += (p.evaluate(x + d, y) - p.evaluate(x - d, y)) / (2 * d);
      sy += (p.evaluate(x, y + d) - p.evaluate(x, y - d)) / (2 * d);
      ++inside;
    }
  return {sx / inside, sy / inside};
}

TEST(FieldAberration, ComaSlopeGrowsLinearlyWithFieldAlongItsAzimuth) {
  const FieldAberrations coma{{{1, 3, 1, 0.25}}, {}};
  for (const double theta : {0.0, 0.7, 2.5, -1.9}) {
    const auto unit =
        mean_slope(compile_phase(pupil_terms(coma, {std::cos(theta), std::sin(theta)})));
    const double along = unit[0] * std::cos(theta) + unit[1] * std::sin(theta);
    const double across = -unit[0] * std::sin(theta) + unit[1] * std::cos(theta);
    EXPECT_GT(along, 0.1);
    EXPECT_NEAR(across, 0.0, 1e-9 * along);
    for (const double h : {0.25, 0.5, 0.8}) {
      const auto s =
          mean_slope(compile_phase(pupil_terms(coma, {h * std::cos(theta), h * std::sin(theta)})));
      EXPECT_NEAR(s[0], h * unit[0], 1e-9);
      EXPECT_NEAR(s[1], h * unit[1], 1e-9);
    }
  }
}

// Noll's first polynomials, written out (Noll 1976, Table 1).
double noll(int j, double rho, double phi) {
  switch (j) {
    case 1: return 1.0;
    case 2: return 2 * rho * std::cos(phi);
    case 3: return 2 * rho * std::sin(phi);
    case 4: return std::sqrt(3.0) * (2 * rho * rho - 1);
    case 5: return std::sqrt(6.0) * rho * rho * std::sin(2 * phi);
    case 6: return std::sqrt(6.0) * rho * rho * std::cos(2 * phi);
    case 7: return std::sqrt(8.0) * (3 * std::pow(rho, 3) - 2 * rho) * std::sin(phi);
    case 8: return std::sqrt(8.0) * (3 * std::pow(rho, 3) - 2 * rho) * std::cos(phi);
    case 11: return std::sqrt(5.0) * (6 * std::pow(rho, 4) - 6 * rho * rho + 1);
    default: ADD_FAILURE() << "no explicit Z" << j; return 0.0;
  }
}

TEST(FieldAberration, DoubleZernikesEqualTheDirectDoubleSum) {
  const FieldAberrations field{{},
                               {{1, 4, 0.05},
                                {4, 4, 0.1},
                                {2, 8, -0.07},
                                {3, 7, 0.03},
                                {6, 5, 0.02},
                                {11, 11, 0.04},
                                {2, 2, 0.01},
                                {8, 4, -0.02}}};
  expect_field_phase(field, 3, 1.0 / std::sqrt(2.0), 1e-12,
                     [&](double hr, double th, double rho, double phi) {
                       double sum = 0.0;
                       for (const DoubleZernikeTerm& t : field.double_zernike)
                         sum += t.waves * noll(t.k, hr, th) * noll(t.j, rho, phi);
                       return sum;
                     });
}

TEST(FieldAberration, EveryPointGivesTheSameShape) {
  const FieldAberrations field{{{1, 3, 1, 0.4}}, {{2, 4, 0.1}, {3, 7, 0.2}}};
  const Aberration origin = pupil_terms(field, {});
  const Aberration off = pupil_terms(field, {0.3, -0.2});
  ASSERT_EQ(origin.seidel.size(), off.seidel.size());
  ASSERT_EQ(origin.zernike.size(), off.zernike.size());
  EXPECT_EQ(origin.seidel[0].waves, 0.0);
  EXPECT_EQ(required_degree(origin), required_degree(off));
}

TEST(FieldAberration, GridSpansTheRadiusXFastest) {
  const auto g = field_grid(3, 2, 0.5);
  ASSERT_EQ(g.size(), 6U);
  EXPECT_EQ(g[0], (FieldPoint{-0.5, -0.5}));
  EXPECT_EQ(g[1], (FieldPoint{0.0, -0.5}));
  EXPECT_EQ(g[2], (FieldPoint{0.5, -0.5}));
  EXPECT_EQ(g[5], (FieldPoint{0.5, 0.5}));
  const auto one = field_grid(1, 1);
  ASSERT_EQ(one.size(), 1U);
  EXPECT_EQ(one[0], (FieldPoint{0.0, 0.0}));
  const auto line = field_grid(1, 5);
  EXPECT_EQ(line[0].x, 0.0);
  EXPECT_EQ(line[0].y, -1.0);
  EXPECT_EQ(line[4].y, 1.0);
}

TEST(FieldAberration, ParsingNamesTheOptionAndRejectsBadFields) {
  const SeidelFieldTerm s = parse_seidel_field("1,3,1,0.25", "--seidel-field");
  EXPECT_EQ(s.k, 1);
  EXPECT_EQ(s.l, 3);
  EXPECT_EQ(s.m, 1);
  EXPECT_EQ(s.waves, 0.25);
  const DoubleZernikeTerm d = parse_double_zernike("4,11,-0.1", "--double-zernike");
  EXPECT_EQ(d.k, 4);
  EXPECT_EQ(d.j, 11);
  EXPECT_EQ(d.waves, -0.1);
  for (const char* bad :
       {"1,3,1", "x,3,1,0.2", "-1,3,1,0.2", "13,3,1,0.2", "1,1,3,0.2", "1,3,1,nan"})
    EXPECT_THROW((void)parse_seidel_field(bad, "--seidel-field"), InputError) << bad;
  for (const char* bad : {"4,11", "0,4,0.1", "4,0,0.1", "a,4,0.1", "4,4,inf"})
    EXPECT_THROW((void)parse_double_zernike(bad, "--double-zernike"), InputError) << bad;
  try {
    (void)parse_seidel_field("1,3", "--seidel-field");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--seidel-field"), std::string::npos);
  }
}

}  // namespace
}  // namespace psfsim

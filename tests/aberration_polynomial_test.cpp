// The Seidel terms' polynomial form against W rho^l cos^m(phi) evaluated directly.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/errors.hpp"

namespace psfsim {
namespace {

TEST(AberrationPolynomial, SeidelTermsMatchDirectEvaluation) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int l = 0; l <= 8; ++l)
    for (int m = 0; m <= l; ++m) {
      const AberrationPolynomial p = compile_phase(Aberration{{{l, m, 0.75}}, {}});
      EXPECT_EQ(p.uses_rho(), (l - m) % 2 == 1) << l << "," << m;
      for (int k = 0; k < 20; ++k) {
        const double x = u(rng), y = u(rng);
        const double rho = std::hypot(x, y);
        const double direct = 0.75 * std::pow(rho, l) * std::pow(std::cos(std::atan2(y, x)), m);
        EXPECT_NEAR(p.evaluate(x, y), direct, 1e-13) << "l=" << l << " m=" << m;
      }
    }
}

TEST(AberrationPolynomial, TermsAddAndCommonDegreePads) {
  const Aberration terms{{{2, 0, 0.5}}, {{4, 0.1}, {4, 0.2}}};
  const AberrationPolynomial p = compile_phase(terms, 6);
  EXPECT_EQ(p.degree, 6);
  const AberrationPolynomial q = compile_phase(terms);
  EXPECT_EQ(q.degree, 2);
  EXPECT_NEAR(p.evaluate(0.3, -0.4), q.evaluate(0.3, -0.4), 1e-15);
  const double rho2 = 0.25;
  EXPECT_NEAR(q.evaluate(0.3, -0.4), 0.5 * rho2 + 0.3 * std::sqrt(3.0) * (2 * rho2 - 1), 1e-15);
}

TEST(Aberration, ParsingRejectsMalformedAndOutOfRangeFields) {
  EXPECT_EQ(parse_seidel("2,1,1.0", "--seidel").l, 2);
  EXPECT_DOUBLE_EQ(parse_zernike(" 4 , -0.25 ", "--zernike").waves, -0.25);
  for (const char* bad : {"2,1", "2,1,x", "2,3,1", "-1,0,1", "2,1,nan", "2,1,inf", "2.5,1,1",
                          "2,1,1,1", "30,0,1", "2,1,1e9"})
    EXPECT_THROW((void)parse_seidel(bad, "--seidel"), InputError) << bad;
  for (const char* bad : {"0,0.1", "-3,0.1", "4", "4,", "4,abc", "1000,0.1", "4,nan"})
    EXPECT_THROW((void)parse_zernike(bad, "--zernike"), InputError) << bad;
}

}  // namespace
}  // namespace psfsim

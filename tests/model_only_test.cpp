// The model layer alone (lib/model/): this program links psfsim_model and no other psfsim
// library, so it builds only while the model needs nothing of the run and io layers. Its
// maths is checked against closed forms, and its pupil sampler takes a map made in memory,
// with no reader behind it.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numbers>
#include <vector>

#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/aperture_spec.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/pupil_map.hpp"
#include "psfsim/pupil_sampling.hpp"
#include "psfsim/units.hpp"
#include "psfsim/zernike.hpp"

namespace psfsim {
namespace {

constexpr double pi = std::numbers::pi;

// Noll's table (JOSA 66, 207, 1976) for j = 1 to 11: odd j the sine terms, even j the cosine.
double noll_closed_form(int j, double r, double t) {
  const double r2 = r * r;
  switch (j) {
    case 1: return 1.0;
    case 2: return 2.0 * r * std::cos(t);
    case 3: return 2.0 * r * std::sin(t);
    case 4: return std::sqrt(3.0) * (2.0 * r2 - 1.0);
    case 5: return std::sqrt(6.0) * r2 * std::sin(2.0 * t);
    case 6: return std::sqrt(6.0) * r2 * std::cos(2.0 * t);
    case 7: return std::sqrt(8.0) * (3.0 * r2 - 2.0) * r * std::sin(t);
    case 8: return std::sqrt(8.0) * (3.0 * r2 - 2.0) * r * std::cos(t);
    case 9: return std::sqrt(8.0) * r2 * r * std::sin(3.0 * t);
    case 10: return std::sqrt(8.0) * r2 * r * std::cos(3.0 * t);
    case 11: return std::sqrt(5.0) * (6.0 * r2 * r2 - 6.0 * r2 + 1.0);
    default: return std::nan("");
  }
}

TEST(ModelOnly, ZernikePolynomialsMatchNollsTable) {
  for (int j = 1; j <= 11; ++j)
    for (const double r : {0.0, 0.3, 0.71, 1.0})
      for (const double t : {0.0, 0.4, 2.0, -2.9}) {
        SCOPED_TRACE("j " + std::to_string(j) + " rho " + std::to_string(r) + " phi " +
                     std::to_string(t));
        const double want = noll_closed_form(j, r, t);
        EXPECT_NEAR(zernike_polar(j, r, t), want, 1e-13);
        // The Cartesian tables every backend evaluates, at the same point.
        const AberrationPolynomial p = compile_phase(Aberration{{}, {{j, 1.0}}});
        EXPECT_NEAR(p.evaluate(r * std::cos(t), r * std::sin(t)), want, 1e-13);
      }
}

TEST(ModelOnly, DefocusIsOrthonormalOnTheDisk) {
  // The mean of Z4^2 over the unit disk, by the midpoint rule in rho and phi.
  constexpr int steps = 400;
  double sum = 0.0, area = 0.0;
  for (int i = 0; i < steps; ++i)
    for (int k = 0; k < steps; ++k) {
      const double r = (i + 0.5) / steps, t = 2.0 * pi * (k + 0.5) / steps;
      const double z = zernike_polar(4, r, t);
      sum += z * z * r;
      area += r;
    }
  EXPECT_NEAR(sum / area, 1.0, 1e-4);
}

TEST(ModelOnly, UnitsParseToTheNearestDouble) {
  EXPECT_EQ(parse_length("550nm", "--wavelength"), 550e-9);
  EXPECT_EQ(parse_angle("0.5lod", "--jitter", true).value, 0.5);
  EXPECT_THROW((void)parse_length("550", "--wavelength"), InputError);
}

// A half-transmitting map made in memory: the sampler multiplies it into the circle, so the
// aperture sums to half the clear circle's.
TEST(ModelOnly, TheSamplerTakesAMapMadeInMemory) {
  const int n = 32;
  auto map = std::make_shared<PupilMap>();
  map->source = map->file = "in memory";
  map->rows = map->columns = n;
  map->values.assign(static_cast<std::size_t>(n) * n, 0.5);
  ApertureSpec aperture;
  aperture.amplitude = map->source;
  aperture.amplitude_map = map;
  const SampledPupil clear(n, 2 * n, Grid::centered, 0.0);
  const SampledPupil half(n, 2 * n, Grid::centered, 0.0, aperture, 0.0, 1);
  EXPECT_EQ(half.amplitude_maps, 1u);
  EXPECT_EQ(half.aperture_sum, 0.5 * clear.aperture_sum);
  EXPECT_EQ(half.energy_sum, 0.25 * clear.aperture_sum);
}

}  // namespace
}  // namespace psfsim

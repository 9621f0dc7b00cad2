// The sampled aperture of docs/spec.md §1 at its boundaries: a sample exactly at rho = 1 or exactly
// at
// rho = obscuration is inside; the spans reproduce the per-sample rule; the peak scale is
// 1 / (sum A)^2.
#include <gtest/gtest.h>

#include <cmath>

#include "psfsim/errors.hpp"
#include "psfsim/pupil_sampling.hpp"

namespace psfsim {
namespace {

bool in_span(const ApertureSpan& s, int c) {
  return c >= s.lo && c < s.hi && !(c >= s.obscured_lo && c < s.obscured_hi);
}

TEST(SampledPupil, SamplesExactlyOnTheRimAndOnTheObscurationAreInside) {
  // Centered grid, N = 8: x = -1, -0.75, ..., 0.75; row 4 is y = 0.
  const SampledPupil f(8, 20, Grid::centered, 0.5);
  ASSERT_DOUBLE_EQ(f.coordinates[0], -1.0);
  ASSERT_DOUBLE_EQ(f.coordinates[2], -0.5);
  ASSERT_DOUBLE_EQ(f.coordinates[4], 0.0);
  const ApertureSpan& axis = f.spans[4];
  EXPECT_TRUE(in_span(axis, 0)) << "rho = 1 exactly";
  EXPECT_TRUE(in_span(axis, 2)) << "rho = obscuration exactly";
  EXPECT_FALSE(in_span(axis, 3)) << "rho = 0.25 < obscuration";
  EXPECT_TRUE(in_span(axis, 6)) << "rho = 0.5 on the other side";
  EXPECT_TRUE(in_span(f.spans[0], 4)) << "(0, -1): rho = 1 exactly";
}

TEST(SampledPupil, SpansAndSumFollowThePerSampleRule) {
  for (const Grid grid : {Grid::centered, Grid::linspace})
    for (const int n : {7, 8, 33, 64})
      for (const double eps : {0.0, 0.25, 0.5}) {
        const SampledPupil f(n, 2 * n + 1, grid, eps);
        double count = 0.0;
        for (int r = 0; r < n; ++r)
          for (int c = 0; c < n; ++c) {
            const double x = f.coordinates[c], y = f.coordinates[r];
            const double rho = std::sqrt(x * x + y * y);
            const bool inside = rho <= 1.0 && rho >= eps;
            count += inside ? 1.0 : 0.0;
            EXPECT_EQ(in_span(f.spans[r], c), inside) << "N=" << n << " r=" << r << " c=" << c;
          }
        EXPECT_EQ(f.aperture_sum, count);
        EXPECT_DOUBLE_EQ(f.peak_scale, 1.0 / (count * count));
        EXPECT_EQ(f.offset, (n + 1) / 2);  // (M - N) / 2 with M = 2N + 1
      }
}

TEST(SampledPupil, RefusesAnApertureWithoutSamples) {
  EXPECT_THROW(SampledPupil(2, 4, Grid::linspace, 0.0), InputError);  // corners at rho = sqrt 2
  EXPECT_THROW(SampledPupil(3, 8, Grid::centered, 0.9), InputError);  // all inside at rho 0.47
}

}  // namespace
}  // namespace psfsim

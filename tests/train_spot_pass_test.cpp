// A spot's samples (docs/coronagraphy.md): where r Q is a whole number the outermost rows and
// columns hold one sample each, on the axes, and those four make a 3 x 3 pass of their own so
// that the main pass is two points smaller. That the sum is unchanged is checked against a
// brute-force FFT by tests/check_coronagraph.py; here, which passes the plan makes.
#include <gtest/gtest.h>

#include <vector>

#include "psfsim/run_plan.hpp"
#include "psfsim/train_plan.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

std::vector<int> spot_pass_points(double radius, double sampling) {
  RunSpec spec = spec_for("cpu", make_case(64, 128, Grid::centered, Normalization::peak, 48),
                          Precision::double_);
  FocalMask spot;
  spot.kind = FocalMask::Kind::spot;
  spot.radius = radius;
  spec.train.planes = {spot, PupilStop{0.9, 0.0, {}}};
  spec.train.mask_sampling = sampling;
  const PsfPlan plan = make_plan(spec, 1);
  std::vector<int> points;
  for (const MaskPass& p : plan.train->channels.front().steps.front().passes)
    points.push_back(p.points);
  return points;
}

TEST(TrainSpotPass, TheRimsFourAxisSamplesArePeeledWhereRQIsWhole) {
  EXPECT_EQ(spot_pass_points(4.0, 16.0), (std::vector<int>{127, 3}));  // 129 samples across
  EXPECT_EQ(spot_pass_points(3.0, 8.0), (std::vector<int>{47, 3}));    // 49
  EXPECT_EQ(spot_pass_points(3.99, 16.0), (std::vector<int>{127}));    // rim rows of 17
  EXPECT_EQ(spot_pass_points(2.9, 16.0), (std::vector<int>{93}));      // r Q = 46.4
  EXPECT_EQ(spot_pass_points(3.0, 4.0), (std::vector<int>{25}));       // J = 12: kept whole
}

}  // namespace
}  // namespace psfsim::test

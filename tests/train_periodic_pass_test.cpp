// A pass over one whole period of the focal plane (MaskPass::periodic) is computed by FFTs
// on both backends. These tests hold the plan's choice to its rule, and each backend's FFT
// path to its own matrix path: the same plan with the passes' twists cleared, which sends
// every pass through the products (docs/coronagraphy.md).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/run_plan.hpp"
#include "psfsim/train_plan.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

struct TrainCase {
  std::string name;
  FocalMask mask;
  Grid grid = Grid::centered;
  double distance_m = 0.0;  // a plane this far before the mask (0: none)
  int samples = 64;         // N
};

RunSpec train_spec(const std::string& backend, const TrainCase& t, Precision precision) {
  Case c = make_case(t.samples, 2 * t.samples, t.grid, Normalization::peak, 48);
  Aberration terms;
  terms.zernike = {{7, 0.03}, {11, -0.02}};  // light through the mask, so that errors show
  c.terms = terms;
  RunSpec spec = spec_for(backend, c, precision);
  spec.train.planes = {t.mask, PupilStop{0.95, 0.0, {}}};
  if (t.distance_m > 0.0) {
    spec.train.planes.insert(spec.train.planes.begin(), Distance{t.distance_m});
    spec.optics.diameter_m = 10e-3;
    spec.optics.wavelength_m = 1e-6;
    spec.optics.pixel_scale = Angle{0.5, true};  // the detector's sampling, in place of M
    spec.padded_size.reset();
  }
  return spec;
}

// The plan's copy with every pass sent through the matrices.
std::shared_ptr<const TrainPlan> without_fft(const TrainPlan& plan) {
  auto copy = std::make_shared<TrainPlan>(plan);
  for (ChannelTrain& c : copy->channels)
    for (TrainStep& s : c.steps)
      for (MaskPass& p : s.passes) p.twist.clear();
  return copy;
}

std::vector<double> frame_of(const std::string& backend, const PsfPlan& plan,
                             const Aberration& terms) {
  auto b = builtin_backends().find(backend)->create(plan);
  const std::vector<AberrationPolynomial> phases{compile_phase(terms, required_degree(terms))};
  const FrameBlock block = b->compute(phases);
  std::vector<double> out(plan.frame_elements());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = plan.precision == Precision::single ? static_cast<const float*>(block.data)[i]
                                                 : static_cast<const double*>(block.data)[i];
  return out;
}

FocalMask vortex(int charge) {
  FocalMask m;
  m.kind = FocalMask::Kind::vortex;
  m.charge = charge;
  return m;
}

FocalMask four_quadrant() {
  FocalMask m;
  m.kind = FocalMask::Kind::four_quadrant;
  return m;
}

FocalMask spot(double radius) {
  FocalMask m;
  m.kind = FocalMask::Kind::spot;
  m.radius = radius;
  return m;
}

// A map of m x m samples N/m lambda/D apart: one whole period of the grid's spectrum, whatever
// N. With N = 40 and m = 128 the GPU's rows kernels take the field's rows 16 at a time in
// float, the last block holding 8.
FocalMask periodic_map(int samples, int points) {
  FocalMask m;
  m.kind = FocalMask::Kind::map;
  m.map_sampling = static_cast<double>(samples) / points;
  auto values = std::make_shared<MaskMap>();
  values->rows = values->columns = static_cast<std::size_t>(points);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> phase(-0.5, 0.5);
  for (int i = 0; i < points * points; ++i)
    values->values.push_back(std::polar(1.0, phase(random)));
  m.map_values = values;
  return m;
}

TEST(TrainPeriodicPass, AMapSpanningOnePeriodIsPeriodicOnAnyN) {
  const PsfPlan plan = make_plan(
      train_spec("", {"map", periodic_map(40, 128), Grid::centered, 0.0, 40}, Precision::double_),
      1);
  const MaskPass& pass = plan.train->channels.front().steps.front().passes.front();
  EXPECT_EQ(pass.points, 128);
  EXPECT_TRUE(pass.periodic());
}

TEST(TrainPeriodicPass, TheWholePlaneMasksFirstPassIsPeriodicOnBothGrids) {
  for (const Grid grid : {Grid::centered, Grid::linspace}) {
    const PsfPlan plan =
        make_plan(train_spec("", {"vortex", vortex(4), grid}, Precision::double_), 1);
    const TrainStep& step = plan.train->channels.front().steps.front();
    ASSERT_EQ(step.passes.size(), 4u);
    const MaskPass& first = step.passes.front();
    // One period of the grid's spectrum at 1/4 lambda/D: 4N samples (4(N-1) on linspace).
    EXPECT_EQ(first.points, grid == Grid::centered ? 256 : 252);
    ASSERT_TRUE(first.periodic());
    // V's entries are phases, V_0 = 1.
    EXPECT_NEAR(std::abs(first.twist.front() - Complex128(1.0)), 0.0, 1e-15);
    for (const Complex128& v : first.twist) EXPECT_NEAR(std::abs(v), 1.0, 1e-14);
    // The finer passes are windows of the plane, not periods.
    for (std::size_t i = 1; i < step.passes.size(); ++i) EXPECT_FALSE(step.passes[i].periodic());
  }
  const PsfPlan lyot = make_plan(train_spec("", {"spot", spot(3.0)}, Precision::double_), 1);
  EXPECT_FALSE(lyot.train->channels.front().steps.front().passes.front().periodic());
}

// A distance's pass is the DFT of the field zero-padded to 2N: periodic, with no twist.
TEST(TrainPeriodicPass, ADistanceIsPeriodic) {
  const PsfPlan plan = make_plan(
      train_spec("", {"distance", spot(2.0), Grid::centered, 5e-3}, Precision::double_), 1);
  const MaskPass& pass = plan.train->channels.front().steps.front().passes.front();
  EXPECT_EQ(pass.points, 128);
  ASSERT_TRUE(pass.periodic());
  for (const Complex128& v : pass.twist) EXPECT_NEAR(std::abs(v - Complex128(1.0)), 0.0, 1e-15);
}

using Param = std::tuple<std::string, Precision>;

class TrainPeriodicPassBackends : public ::testing::TestWithParam<Param> {};

// The FFT path against the backend's own products, in the same precision: the two round
// differently, so the bound is the backends' (test_support.hpp).
TEST_P(TrainPeriodicPassBackends, FftsEqualTheMatrices) {
  const auto& [backend, precision] = GetParam();
  const std::string why = skip_reason(backend);
  if (!why.empty()) GTEST_SKIP() << why;
  const std::vector<TrainCase> cases = {
      {"vortex6", vortex(6)},
      {"vortex2_linspace", vortex(2), Grid::linspace},
      {"fqpm", four_quadrant()},
      {"distance", spot(2.0), Grid::centered, 5e-3},
      {"map_n40", periodic_map(40, 128), Grid::centered, 0.0, 40}};
  for (const TrainCase& t : cases) {
    const RunSpec spec = train_spec(backend, t, precision);
    const PsfPlan with_fft = make_plan(spec, 1);
    PsfPlan with_products = with_fft;
    with_products.train = without_fft(*with_fft.train);
    const Aberration& terms = spec.frames.front();
    const std::vector<double> a = frame_of(backend, with_fft, terms);
    const std::vector<double> b = frame_of(backend, with_products, terms);
    EXPECT_LE(relative_l2(a, b), backend_tolerance(precision)) << t.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, TrainPeriodicPassBackends,
                         ::testing::Combine(::testing::ValuesIn(compiled_backends()),
                                            ::testing::Values(Precision::single,
                                                              Precision::double_)),
                         [](const auto& info) { return backend_and_precision(info); });

}  // namespace
}  // namespace psfsim::test

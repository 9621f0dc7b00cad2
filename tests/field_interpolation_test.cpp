// Interpolation over a table's field points: exact at the nodes and for fields linear in
// position, by either method; the grid's cubic closer than a line for a smooth field; points
// outside the hull, repeated nodes and slanted lines refused.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "psfsim/errors.hpp"
#include "psfsim/field_interpolation.hpp"

namespace psfsim {
namespace {

double linear_field(FieldPoint p) { return 0.3 + 0.2 * p.x - 0.5 * p.y; }

double interpolate(const FieldInterpolator& f, const std::vector<FieldPoint>& nodes,
                   double (*field)(FieldPoint), FieldPoint p) {
  const std::vector<double> w = f.weights(p);
  EXPECT_NEAR(std::accumulate(w.begin(), w.end(), 0.0), 1.0, 1e-12);
  double sum = 0.0;
  for (std::size_t k = 0; k < nodes.size(); ++k) sum += w[k] * field(nodes[k]);
  return sum;
}

void expect_exact_at_nodes(const FieldInterpolator& f, const std::vector<FieldPoint>& nodes) {
  for (std::size_t k = 0; k < nodes.size(); ++k) {
    const std::vector<double> w = f.weights(nodes[k]);
    for (std::size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(w[i], i == k ? 1.0 : 0.0, 1e-12);
  }
}

std::vector<FieldPoint> uneven_grid() {
  std::vector<FieldPoint> nodes;
  // Listed column by column, so that the node order is not the grid's.
  for (const double x : {-1.0, -0.4, 0.1, 1.0})
    for (const double y : {-0.8, 0.0, 0.9}) nodes.push_back({x, y});
  return nodes;
}

TEST(FieldInterpolation, GridIsCubicExactAtNodesAndForLinearFields) {
  const auto nodes = uneven_grid();
  const FieldInterpolator f(nodes, "t.csv");
  EXPECT_EQ(f.method(), FieldInterpolation::cubic_grid);
  expect_exact_at_nodes(f, nodes);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> ux(-1.0, 1.0), uy(-0.8, 0.9);
  for (int k = 0; k < 50; ++k) {
    const FieldPoint p{ux(rng), uy(rng)};
    EXPECT_NEAR(interpolate(f, nodes, linear_field, p), linear_field(p), 1e-12);
  }
}

TEST(FieldInterpolation, GridCubicBeatsALineOnASmoothField) {
  std::vector<FieldPoint> nodes;
  for (int iy = 0; iy < 7; ++iy)
    for (int ix = 0; ix < 7; ++ix) nodes.push_back({-1 + ix / 3.0, -1 + iy / 3.0});
  const FieldInterpolator f(nodes, "grid.h5");
  const auto smooth = [](FieldPoint p) { return std::sin(p.x) * std::cos(p.y); };
  // Between nodes, half a step from each, where a line misses by some 4.5e-3.
  const FieldPoint mid{-1 + 2.5 / 3.0, -1 + 3.5 / 3.0};
  const std::vector<double> w = f.weights(mid);
  double value = 0.0;
  for (std::size_t k = 0; k < nodes.size(); ++k) value += w[k] * smooth(nodes[k]);
  EXPECT_NEAR(value, smooth(mid), 1e-3);
  // The bilinear value from the four nodes around `mid` (x between nodes 2 and 3, y between
  // 3 and 4), which a linear method would give: the cubic's bar is one it cannot pass.
  const double x0 = -1 + 2 / 3.0, x1 = -1 + 3 / 3.0, y0 = -1 + 3 / 3.0, y1 = -1 + 4 / 3.0;
  const double bilinear =
      0.25 * (smooth({x0, y0}) + smooth({x1, y0}) + smooth({x0, y1}) + smooth({x1, y1}));
  EXPECT_GT(std::fabs(bilinear - smooth(mid)), 3e-3);
}

TEST(FieldInterpolation, ScatteredPointsAreLinearOnTheirTriangulation) {
  std::vector<FieldPoint> nodes{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> u(-0.95, 0.95);
  for (int k = 0; k < 40; ++k) nodes.push_back({u(rng), u(rng)});
  const FieldInterpolator f(nodes, "measured.csv");
  EXPECT_EQ(f.method(), FieldInterpolation::linear_triangulation);
  expect_exact_at_nodes(f, nodes);
  std::uniform_real_distribution<double> inside(-1.0, 1.0);
  for (int k = 0; k < 200; ++k) {
    const FieldPoint p{inside(rng), inside(rng)};
    EXPECT_NEAR(interpolate(f, nodes, linear_field, p), linear_field(p), 1e-12);
  }
}

TEST(FieldInterpolation, APointOutsideTheHullIsRefusedAndNamed) {
  const FieldInterpolator grid(uneven_grid(), "t.csv");
  const FieldInterpolator scattered({{0, 0}, {1, 0}, {0, 1}, {0.2, 0.3}}, "s.csv");
  for (const auto* f : {&grid, &scattered}) {
    try {
      (void)f->weights({1.5, 0.25});
      FAIL() << "accepted a point outside the hull";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("(1.5, 0.25)"), std::string::npos) << what;
      EXPECT_NE(what.find(".csv"), std::string::npos) << what;
    }
  }
  EXPECT_THROW((void)scattered.weights({0.6, 0.6}), InputError);  // beyond the hypotenuse
  EXPECT_NO_THROW((void)scattered.weights({0.5, 0.5}));           // on it
}

TEST(FieldInterpolation, ALineAlongAnAxisIsAOneDimensionalGrid) {
  const std::vector<FieldPoint> nodes{{0, -1}, {0, -0.5}, {0, 0}, {0, 0.5}, {0, 1}};
  const FieldInterpolator f(nodes, "line.csv");
  EXPECT_EQ(f.method(), FieldInterpolation::cubic_grid);
  EXPECT_NEAR(interpolate(f, nodes, linear_field, {0, 0.3}), linear_field({0, 0.3}), 1e-12);
  EXPECT_THROW((void)f.weights({0.1, 0.3}), InputError);
}

TEST(FieldInterpolation, RefusesRepeatedNodesSlantedLinesAndEmptyTables) {
  EXPECT_THROW(FieldInterpolator({{0, 0}, {1, 0}, {0, 0}, {0, 1}}, "d.csv"), InputError);
  EXPECT_THROW(FieldInterpolator({{0, 0}, {0.5, 0.5}, {1, 1}}, "slant.csv"), InputError);
  EXPECT_THROW(FieldInterpolator({}, "empty.csv"), InputError);
}

}  // namespace
}  // namespace psfsim

// A mask's pass folded by its grids' symmetry (cuda/include/psfsim/cuda/folded_pass.hpp), on
// the host in double: the four parities of a random field taken through the folded matrices
// and weights, against L = B (G .* (A P A^T)) B^T of the plan's own unfolded matrices written
// out here. Tolerance: 1e-12 relative L2 (both are double sums of N^2 and m^2 terms of unit
// size; they differ by rounding only). Which passes fold is checked too.
#include <gtest/gtest.h>

#include <complex>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "psfsim/cuda/folded_pass.hpp"
#include "psfsim/run_plan.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

using Complex = std::complex<double>;
using cuda::FoldedAxis;
using cuda::FoldedPass;

PsfPlan plan_with(const FocalMask& mask, int n, Grid grid, double sampling) {
  RunSpec spec =
      spec_for("cpu", make_case(n, 2 * n, grid, Normalization::peak, n), Precision::double_);
  spec.train.planes = {mask, PupilStop{0.9, 0.0, {}}};
  spec.train.mask_sampling = sampling;
  return make_plan(spec, 1);
}

FocalMask mask_of(FocalMask::Kind kind, double radius, int charge = 0) {
  FocalMask m;
  m.kind = kind;
  m.radius = radius;
  m.charge = charge;
  return m;
}

std::vector<Complex> random_field(int n) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Complex> p(static_cast<std::size_t>(n) * n);
  for (Complex& v : p) v = {u(random), u(random)};
  return p;
}

// L = B (G .* (A P A^T)) B^T, row-major N x N, A the pass's m x N forward matrix.
std::vector<Complex> unfolded(const MaskPass& pass, const std::vector<Complex>& p, int n) {
  const int m = pass.points;
  const auto a = [&](int q, int i) { return pass.forward[static_cast<std::size_t>(q) * n + i]; };
  std::vector<Complex> rows(static_cast<std::size_t>(n) * m),
      focal(static_cast<std::size_t>(m) * m);
  for (int y = 0; y < n; ++y)  // rows = P A^T
    for (int q = 0; q < m; ++q) {
      Complex s;
      for (int x = 0; x < n; ++x) s += p[static_cast<std::size_t>(y) * n + x] * a(q, x);
      rows[static_cast<std::size_t>(y) * m + q] = s;
    }
  for (int r = 0; r < m; ++r)  // G .* (A rows)
    for (int q = 0; q < m; ++q) {
      Complex s;
      for (int y = 0; y < n; ++y) s += a(r, y) * rows[static_cast<std::size_t>(y) * m + q];
      focal[static_cast<std::size_t>(r) * m + q] =
          s * pass.weights[static_cast<std::size_t>(r) * m + q];
    }
  std::vector<Complex> back(static_cast<std::size_t>(m) * n), out(static_cast<std::size_t>(n) * n);
  for (int r = 0; r < m; ++r)  // back = F B^T, B[x][q] = conj(A[q][x])
    for (int x = 0; x < n; ++x) {
      Complex s;
      for (int q = 0; q < m; ++q)
        s += focal[static_cast<std::size_t>(r) * m + q] * std::conj(a(q, x));
      back[static_cast<std::size_t>(r) * n + x] = s;
    }
  for (int y = 0; y < n; ++y)  // B back
    for (int x = 0; x < n; ++x) {
      Complex s;
      for (int r = 0; r < m; ++r)
        s += std::conj(a(r, y)) * back[static_cast<std::size_t>(r) * n + x];
      out[static_cast<std::size_t>(y) * n + x] = s;
    }
  return out;
}

// The same through the folded pass, parity q = 2 px + py (0 even: sums, 1 odd: differences):
// each parity's block through the real forward products, the mask's parts mixing them as
// W_p = sum_r i^(|p| - |q|) G_r R_q with q = p xor r, the real inverse products, and back to
// the four samples each position stands for.
std::vector<Complex> folded(const FoldedPass& f, const FoldedAxis& axis,
                            const std::vector<Complex>& p, int n) {
  const int w = f.width, t = f.half;
  const std::size_t wt = static_cast<std::size_t>(w) * t, tt = static_cast<std::size_t>(t) * t;
  const auto sample = [&](int row, int col) {
    return row < 0 || col < 0 ? Complex{} : p[static_cast<std::size_t>(row) * n + col];
  };
  const auto fwd = [&](int parity, int j, int k) {
    return f.forward[static_cast<std::size_t>(parity) * wt + static_cast<std::size_t>(k) * t + j];
  };
  const auto inv = [&](int parity, int k, int j) {
    return f.inverse[static_cast<std::size_t>(parity) * wt + static_cast<std::size_t>(j) * w + k];
  };
  const auto odd_axes = [](int q) { return (q & 1) + (q >> 1); };
  std::vector<std::vector<Complex>> r(4, std::vector<Complex>(tt));
  for (int q = 0; q < 4; ++q) {
    const int py = q & 1, px = q >> 1;
    const double sy = py == 0 ? 1.0 : -1.0, sx = px == 0 ? 1.0 : -1.0;
    std::vector<Complex> block(static_cast<std::size_t>(w) * w);
    for (int a = 0; a < w; ++a)
      for (int b = 0; b < w; ++b) {
        const int yp = axis.positive[a], yn = axis.negative[a];
        const int xp = axis.positive[b], xn = axis.negative[b];
        block[static_cast<std::size_t>(a) * w + b] =
            sample(yp, xp) + sx * sample(yp, xn) + sy * (sample(yn, xp) + sx * sample(yn, xn));
      }
    for (int jy = 0; jy < t; ++jy)
      for (int jx = 0; jx < t; ++jx) {
        Complex s;
        for (int a = 0; a < w; ++a)
          for (int b = 0; b < w; ++b)
            s += fwd(py, jy, a) * block[static_cast<std::size_t>(a) * w + b] * fwd(px, jx, b);
        r[q][static_cast<std::size_t>(jy) * t + jx] = s;
      }
  }
  std::vector<Complex> out(static_cast<std::size_t>(n) * n);
  for (int q = 0; q < 4; ++q) {
    const int py = q & 1, px = q >> 1;
    std::vector<Complex> weighted(tt);
    for (int part = 0; part < f.parities; ++part) {
      const int from = q ^ part;
      const Complex factor = std::pow(Complex(0.0, 1.0), odd_axes(q) - odd_axes(from));
      for (std::size_t j = 0; j < tt; ++j)
        weighted[j] += factor * f.weights[static_cast<std::size_t>(part) * tt + j] * r[from][j];
    }
    for (int a = 0; a < w; ++a)
      for (int b = 0; b < w; ++b) {
        Complex s;
        for (int jy = 0; jy < t; ++jy)
          for (int jx = 0; jx < t; ++jx)
            s += inv(py, a, jy) * weighted[static_cast<std::size_t>(jy) * t + jx] * inv(px, b, jx);
        for (const int y : {axis.positive[a], axis.negative[a]})
          for (const int x : {axis.positive[b], axis.negative[b]}) {
            if (y < 0 || x < 0) continue;
            const double sy = py == 1 && y == axis.negative[a] ? -1.0 : 1.0;
            const double sx = px == 1 && x == axis.negative[b] ? -1.0 : 1.0;
            out[static_cast<std::size_t>(y) * n + x] += sy * sx * s;
          }
      }
  }
  return out;
}

double relative_difference(const std::vector<Complex>& a, const std::vector<Complex>& ref) {
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    num += std::norm(a[i] - ref[i]);
    den += std::norm(ref[i]);
  }
  return std::sqrt(num / den);
}

TEST(FoldedPass, SpotAndRimPassesMatchTheUnfoldedOnes) {
  struct Case {
    int n;
    Grid grid;
    double radius, sampling;
  };
  // N even and odd (a middle sample alone); a window of odd points (theta = 0 on it) with its
  // rim's 3 x 3 pass, and one of 17 points without.
  for (const Case& c : {Case{24, Grid::centered, 2.0, 8.0}, Case{25, Grid::linspace, 2.0, 8.0},
                        Case{25, Grid::centered, 1.1, 8.0}}) {
    const PsfPlan plan =
        plan_with(mask_of(FocalMask::Kind::spot, c.radius), c.n, c.grid, c.sampling);
    const FoldedAxis axis = cuda::fold_axis(plan.sampled_pupil().coordinates);
    const std::vector<Complex> p = random_field(c.n);
    const std::vector<MaskPass>& passes = plan.train->channels.front().steps.front().passes;
    for (const MaskPass& pass : passes) {
      const std::string what = "N " + std::to_string(c.n) + ", m " + std::to_string(pass.points);
      const std::optional<FoldedPass> f = cuda::fold_pass(axis, pass);
      ASSERT_TRUE(f.has_value()) << what;
      EXPECT_EQ(f->half, (pass.points + 1) / 2) << what;
      EXPECT_LE(relative_difference(folded(*f, axis, p, c.n), unfolded(pass, p, c.n)), 1e-12)
          << what;
    }
  }
}

// A vortex's phase (cos and i sin of l phi: parts 0 and 3), four quadrants' signs (part 3)
// and a map of no symmetry (every part) mix the parities. A whole-plane mask's outermost pass
// spans one period of even m (MaskPass::periodic): on the centred grid of even N its -theta_max
// row of A is also +theta_max's, and it folds with that sample halved between the two; on an
// odd grid the rows differ by a sign and it does not fold.
TEST(FoldedPass, VortexFourQuadrantAndMapPassesMixTheParities) {
  struct Mask {
    std::string name;
    FocalMask mask;
  };
  FocalMask map = mask_of(FocalMask::Kind::map, 0.0);
  auto values = std::make_shared<MaskMap>();
  values->rows = values->columns = 9;
  std::mt19937 random(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 81; ++i) values->values.emplace_back(u(random), u(random));
  map.map_values = values;
  map.map_sampling = 0.5;
  for (const Mask& m :
       {Mask{"vortex2", mask_of(FocalMask::Kind::vortex, 0.0, 2)},
        Mask{"vortex6", mask_of(FocalMask::Kind::vortex, 0.0, 6)},
        Mask{"fqpm", mask_of(FocalMask::Kind::four_quadrant, 0.0)}, Mask{"map", map}}) {
    for (const int n : {24, 25}) {
      const PsfPlan plan = plan_with(m.mask, n, Grid::centered, 8.0);
      const FoldedAxis axis = cuda::fold_axis(plan.sampled_pupil().coordinates);
      const std::vector<Complex> p = random_field(n);
      int folded_passes = 0, periodic_passes = 0;
      for (const MaskPass& pass : plan.train->channels.front().steps.front().passes) {
        const std::string what =
            m.name + ", N " + std::to_string(n) + ", m " + std::to_string(pass.points);
        periodic_passes += pass.periodic() ? 1 : 0;
        const std::optional<FoldedPass> f = cuda::fold_pass(axis, pass);
        ASSERT_EQ(f.has_value(), !pass.periodic() || n % 2 == 0) << what;
        if (!f) continue;
        ++folded_passes;
        EXPECT_EQ(f->parities, 4) << what;
        EXPECT_LE(relative_difference(folded(*f, axis, p, n), unfolded(pass, p, n)), 1e-12) << what;
      }
      EXPECT_GT(folded_passes, 0) << m.name;
      // The whole-plane masks have the whole-period pass the fold's rule above is about.
      if (m.name != "map") {
        EXPECT_EQ(periodic_passes, 1) << m.name << ", N " << n;
      }
    }
  }
}

TEST(FoldedPass, AWindowOffTheAxisStaysUnfolded) {
  const PsfPlan plan = plan_with(mask_of(FocalMask::Kind::spot, 2.0), 24, Grid::centered, 8.0);
  const FoldedAxis axis = cuda::fold_axis(plan.sampled_pupil().coordinates);
  MaskPass pass = plan.train->channels.front().steps.front().passes.front();
  ASSERT_TRUE(cuda::fold_pass(axis, pass).has_value());
  pass.centre += 1.0;
  EXPECT_FALSE(cuda::fold_pass(axis, pass).has_value());
}

}  // namespace
}  // namespace psfsim::test

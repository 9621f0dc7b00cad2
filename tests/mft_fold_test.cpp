// The folded MFT (cuda/include/psfsim/cuda/mft_fold.hpp) on the host, in double: the grids'
// folded positions, and the two real products with W of a pupil folded by
// FoldedPupilLayout::write, against A P A^T of the unfolded matrix (psfsim/mft_matrix.hpp)
// written out here, times the centre's factor. Tolerance: 1e-12 relative L2 (both are double sums
// of N^2 terms of unit size; they differ by rounding only).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "psfsim/cuda/mft_fold.hpp"
#include "psfsim/mft_matrix.hpp"
#include "psfsim/pupil_math.hpp"

namespace psfsim::cuda {
namespace {

using Complex = std::complex<double>;

std::vector<double> grid(int n, Grid g) {
  std::vector<double> x;
  for (int i = 0; i < n; ++i) x.push_back(pupil::coordinate(i, n, g));
  return x;
}

TEST(MftFold, CenteredEvenGridFoldsAboutMinusOneOverN) {
  const FoldedAxis axis = fold_axis(grid(8, Grid::centered));  // -1, -0.75, ..., 0.75
  ASSERT_TRUE(axis.worthwhile());
  EXPECT_DOUBLE_EQ(axis.centre, -0.125);
  EXPECT_EQ(axis.layout.diffs, 4);
  EXPECT_EQ(axis.layout.sums, 4);  // no sample alone: the side stays N
  EXPECT_EQ(axis.positive[0], 7);  // 0.75 = c + 0.875
  EXPECT_EQ(axis.negative[0], 0);  // -1 = c - 0.875
  const double magnitudes[] = {0.875, 0.625, 0.375, 0.125};
  for (int m = 0; m < 4; ++m) EXPECT_DOUBLE_EQ(axis.magnitude[m], magnitudes[m]) << m;
}

TEST(MftFold, OddGridKeepsItsMiddleSampleAlone) {
  const FoldedAxis axis = fold_axis(grid(7, Grid::centered));
  ASSERT_TRUE(axis.worthwhile());
  EXPECT_NEAR(axis.centre, -1.0 / 7.0, 1e-15);  // the middle sample's coordinate
  EXPECT_EQ(axis.layout.diffs, 3);
  EXPECT_EQ(axis.layout.sums, 4);
  EXPECT_EQ(axis.positive[3], 3);
  EXPECT_EQ(axis.negative[3], -1);
  EXPECT_EQ(axis.magnitude[3], 0.0);
}

TEST(MftFold, EveryIndexOnceOnEachGrid) {
  for (const Grid g : {Grid::centered, Grid::linspace})
    for (const int n : {1, 2, 7, 16, 21, 128, 255, 1000}) {
      const FoldedAxis axis = fold_axis(grid(n, g));
      EXPECT_TRUE(axis.worthwhile()) << "n " << n;
      EXPECT_EQ(axis.layout.width(), n) << "n " << n;
      std::vector<int> seen(static_cast<std::size_t>(n), 0);
      for (std::size_t m = 0; m < axis.positive.size(); ++m) {
        if (axis.positive[m] >= 0) ++seen[static_cast<std::size_t>(axis.positive[m])];
        if (axis.negative[m] >= 0) ++seen[static_cast<std::size_t>(axis.negative[m])];
      }
      for (const int s : seen) EXPECT_EQ(s, 1) << "n " << n;
    }
}

TEST(MftFold, OnlySymmetricGridsFold) {
  std::vector<double> x = grid(16, Grid::centered);
  for (double& v : x) v += 1e-3;  // still symmetric, about -1/16 + 1e-3
  EXPECT_TRUE(fold_axis(x).worthwhile());
  x[3] += 1e-6;
  EXPECT_FALSE(fold_axis(x).worthwhile());
}

// The folded products against the direct transform, for a random complex pupil (every
// sample, an odd grid's middle one included), on each grid and at an off-centre pixel centre:
// the fields agree once the folded one takes the centre's factor, so their intensities do.
void expect_folded_matches_direct(int n, Grid g, int k, double pixel_centre, double scale) {
  const std::vector<double> x = grid(n, g);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Complex> pupil(static_cast<std::size_t>(n) * n);
  for (Complex& p : pupil) p = {u(random), u(random)};

  std::vector<Complex> a;
  write_mft_matrix(MftAxis{x, k, pixel_centre, scale}, mft_phasor, std::back_inserter(a));
  std::vector<Complex> direct(static_cast<std::size_t>(k) * k);
  for (int q = 0; q < k; ++q)
    for (int p = 0; p < k; ++p)
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c)
          direct[static_cast<std::size_t>(q) * k + p] += a[static_cast<std::size_t>(q) * n + r] *
                                                         a[static_cast<std::size_t>(p) * n + c] *
                                                         pupil[static_cast<std::size_t>(r) * n + c];

  const FoldedAxis axis = fold_axis(x);
  const FoldedPupilLayout& layout = axis.layout;
  const int w = layout.width();
  const auto sample = [&](int r, int c) {
    return r < 0 || c < 0 ? Complex{} : pupil[static_cast<std::size_t>(r) * n + c];
  };
  struct Pair {
    double x, y;
  };
  const auto pair = [](Complex z) { return Pair{z.real(), z.imag()}; };
  std::vector<double> folded(static_cast<std::size_t>(layout.frame_reals()), 0.0);
  for (int i = 0; i < layout.sums; ++i)
    for (int j = 0; j < layout.sums; ++j) {
      const int yp = axis.positive[i], yn = axis.negative[i];
      const int xp = axis.positive[j], xn = axis.negative[j];
      layout.write(folded.data(), i, j, pair(sample(yp, xp)), pair(sample(yp, xn)),
                   pair(sample(yn, xp)), pair(sample(yn, xn)));
    }
  std::vector<double> matrix;
  ASSERT_TRUE(axis.worthwhile());
  write_folded_matrix(axis, k, pixel_centre, scale, mft_phasor, std::back_inserter(matrix));
  ASSERT_EQ(matrix.size(), static_cast<std::size_t>(w) * k);

  // First product, X = W^T L^T (K x 2P); then each half of X's columns times W.
  std::vector<double> first(static_cast<std::size_t>(k) * 2 * w, 0.0);
  for (int row = 0; row < 2 * w; ++row)
    for (int kk = 0; kk < k; ++kk)
      for (int col = 0; col < w; ++col)
        first[static_cast<std::size_t>(row) * k + kk] +=
            folded[static_cast<std::size_t>(row) * w + col] *
            matrix[static_cast<std::size_t>(kk) * w + col];
  double error = 0.0, norm = 0.0;
  for (int q = 0; q < k; ++q)
    for (int p = 0; p < k; ++p) {
      double part[2] = {0.0, 0.0};
      for (int half = 0; half < 2; ++half)
        for (int col = 0; col < w; ++col)
          part[half] += first[static_cast<std::size_t>(half * w + col) * k + p] *
                        matrix[static_cast<std::size_t>(q) * w + col];
      // The folded field lacks the unimodular factor of the grid's centre c on each axis.
      const Complex shift = mft_phasor((q - pixel_centre) * scale * axis.centre / 2.0) *
                            mft_phasor((p - pixel_centre) * scale * axis.centre / 2.0);
      const Complex d = direct[static_cast<std::size_t>(q) * k + p];
      error += std::norm(shift * Complex{part[0], part[1]} - d);
      norm += std::norm(d);
    }
  EXPECT_LE(std::sqrt(error / norm), 1e-12) << "n " << n << " K " << k;
}

TEST(MftFold, ProductsMatchTheDirectTransform) {
  expect_folded_matches_direct(16, Grid::centered, 9, 4.0, 0.37);
  expect_folded_matches_direct(16, Grid::centered, 12, 4.5, 1.3);
  expect_folded_matches_direct(21, Grid::centered, 8, 3.0, 0.8);
  expect_folded_matches_direct(16, Grid::linspace, 10, 5.0, 0.37);
  expect_folded_matches_direct(17, Grid::linspace, 7, 2.5, 1.1);
  expect_folded_matches_direct(8, Grid::centered, 21, 10.0, 0.37);
}

}  // namespace
}  // namespace psfsim::cuda

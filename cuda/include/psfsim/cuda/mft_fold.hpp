#pragma once
// The MFT folded by the grid's symmetry, for the CUDA backend's products.
//
// Every pupil grid is symmetric about its centre c: its coordinates come in pairs c + m and
// c - m (the centered grid about c = -1/N, the linspace grid about 0). The Fourier
// matrix's entries (psfsim/mft_matrix.hpp: A_q(x) = e(theta_q x / 2), e(t) = exp(-2 pi i t))
// factor as A_q(c + m) = e(theta_q c / 2) e(theta_q m / 2), and e(theta_q m / 2) at -m is
// the conjugate of that at m, so that a row of samples transforms as
//   sum_x A_q(x) p(x) = e(theta_q c / 2) [sum over m >= 0 of Re e(.) (p(c + m) + p(c - m))
//                                          + i Im e(.) (p(c + m) - p(c - m))].
// The factor before the bracket is unimodular and the same for the rows' and the columns'
// transforms, so the field folded without it, E' with E(q, p) = e(theta_q c / 2)
// e(theta_p c / 2) E'(q, p), has the very intensity |E|^2: the folded path serves frames,
// never the field's phase. Folding both axes turns each of the MFT's two complex products
// into one real product of half the operations, on matrices whose side is N itself (N / 2
// sums and N / 2 differences, one sum more for odd N): the pupil kernel writes, for each
// position of the folded quadrant, the sums and differences of its four mirrored samples into
// a real matrix (FoldedPupilLayout), which one real product with the folded matrix W
// (write_folded_matrix) takes to the field's first transform, laid out so that a second real
// product with the same W finishes it, real and imaginary parts as separate K x K planes.
//
// Plain C++17 (the kernels include it), header only: tested in every build.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <vector>

#include "psfsim/pupil_math.hpp"  // PSFSIM_HD

namespace psfsim::cuda {

// Where the folded quadrant's values go in one frame's real matrix, row-major 2P x P.
// The folded positions m < diffs pair two samples and have a difference; position
// [diffs, sums), an odd grid's middle sample alone, has only a sum.
struct FoldedPupilLayout {
  int sums = 0;   // folded positions: the rows (and columns) of cosines
  int diffs = 0;  // folded positions of two samples: the rows (and columns) of sines

  [[nodiscard]] PSFSIM_HD int width() const noexcept { return sums + diffs; }  // P
  [[nodiscard]] PSFSIM_HD long long frame_reals() const noexcept { return 2LL * width() * width(); }

  // Position (i, j) of the folded quadrant from its four samples p(c + sy m_i, c + sx m_j):
  // pp = p(+, +), pn = p(+, -), np = p(-, +), nn = p(-, -),
  // zero where the grid has no such sample. `frame` is the frame's 2P x P row-major matrix:
  // row groups of sums (i < sums) and differences (i < diffs) over y, each row the sums then
  // the differences over x, with the signs that make the first product's columns the field's
  // real part (first P) and imaginary part (next P) before the second product.
  template <typename Real, typename Complex>
  PSFSIM_HD void write(Real* frame, int i, int j, Complex pp, Complex pn, Complex np,
                       Complex nn) const {
    const int p = width();
    const Real ax = pp.x + pn.x, ay = pp.y + pn.y;  // y = +: the sum over x
    const Real bx = pp.x - pn.x, by = pp.y - pn.y;  // y = +: the difference over x
    const Real cx = np.x + nn.x, cy = np.y + nn.y;
    const Real dx = np.x - nn.x, dy = np.y - nn.y;
    Real* real_part = frame + static_cast<long long>(i) * p;      // rows of sums over y
    Real* imag_part = frame + static_cast<long long>(p + i) * p;  // the same, imaginary
    real_part[j] = ax + cx;                                       // ss, real
    imag_part[j] = ay + cy;                                       // ss, imaginary
    if (j < diffs) {
      real_part[sums + j] = -(by + dy);  // -sd, imaginary
      imag_part[sums + j] = bx + dx;     // sd, real
    }
    if (i < diffs) {
      Real* real_diff = frame + static_cast<long long>(sums + i) * p;  // differences over y
      Real* imag_diff = frame + static_cast<long long>(p + sums + i) * p;
      real_diff[j] = -(ay - cy);  // -ds, imaginary
      imag_diff[j] = ax - cx;     // ds, real
      if (j < diffs) {
        real_diff[sums + j] = -(bx - dx);  // -dd, real
        imag_diff[sums + j] = -(by - dy);  // -dd, imaginary
      }
    }
  }
};

// The folded positions of a grid's coordinates: position m pairs the sample at c + m
// (`positive`) with the one at c - m (`negative`), the middle sample of an odd grid (m = 0)
// alone, with no negative (-1).
struct FoldedAxis {
  std::vector<int> positive;
  std::vector<int> negative;
  std::vector<double> magnitude;  // m
  double centre = 0.0;            // c
  bool symmetric = false;         // whether the coordinates are symmetric about c
  FoldedPupilLayout layout;

  // Whether the folded products apply: the grid is symmetric (every grid psfsim makes is).
  [[nodiscard]] bool worthwhile() const noexcept { return symmetric; }
};

// Pairs the k-th smallest coordinate with the k-th largest. Symmetric means every pair's sum
// is 2c to within rounding (1e-12 of the grid's span): the pupil's samples are taken at their
// own coordinates, so such a difference only moves W's entries by as much.
inline FoldedAxis fold_axis(const std::vector<double>& coordinates) {
  FoldedAxis axis;
  const int n = static_cast<int>(coordinates.size());
  if (n == 0) return axis;
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return coordinates[static_cast<std::size_t>(a)] < coordinates[static_cast<std::size_t>(b)];
  });
  const auto x = [&](int k) {
    return coordinates[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])];
  };
  axis.centre = (x(0) + x(n - 1)) / 2.0;
  const double tolerance = 1e-12 * (x(n - 1) - x(0));
  axis.symmetric = true;
  for (int k = n - 1; 2 * k >= n; --k) {
    const int mirror = n - 1 - k;
    if (mirror == k) break;
    axis.symmetric &= std::fabs((x(k) + x(mirror)) / 2.0 - axis.centre) <= tolerance;
    axis.positive.push_back(order[static_cast<std::size_t>(k)]);
    axis.negative.push_back(order[static_cast<std::size_t>(mirror)]);
    axis.magnitude.push_back((x(k) - x(mirror)) / 2.0);
  }
  axis.layout.diffs = static_cast<int>(axis.positive.size());
  if (n % 2 == 1) {
    const int middle = order[static_cast<std::size_t>(n / 2)];
    axis.symmetric &=
        std::fabs(coordinates[static_cast<std::size_t>(middle)] - axis.centre) <= tolerance;
    axis.positive.push_back(middle);
    axis.negative.push_back(-1);
    axis.magnitude.push_back(0.0);
  }
  axis.layout.sums = static_cast<int>(axis.positive.size());
  return axis;
}

// W, P x K column-major (ld P) for output k: Re e(theta_k m / 2) in rows m < sums, then
// Im e(theta_k m / 2) in rows sums + m for m < diffs, where e(t) = phasor(t) is the MFT
// matrix's entry (psfsim/mft_matrix.hpp) and theta_k = (k - pixel_centre) scale. The one W
// serves both products, rows and columns sampling the one grid.
template <typename Phasor, typename OutputIt>
OutputIt write_folded_matrix(const FoldedAxis& axis, int output, double pixel_centre,
                             double pixel_scale, Phasor&& phasor, OutputIt out) {
  for (int k = 0; k < output; ++k) {
    const double theta = (k - pixel_centre) * pixel_scale;
    for (int m = 0; m < axis.layout.sums; ++m)
      *out++ = std::complex<double>(phasor(theta * (axis.magnitude[m] / 2.0))).real();
    for (int m = 0; m < axis.layout.diffs; ++m)
      *out++ = std::complex<double>(phasor(theta * (axis.magnitude[m] / 2.0))).imag();
  }
  return out;
}

}  // namespace psfsim::cuda

#pragma once
// A focal-plane mask's pass (psfsim/train_plan.hpp) folded by the symmetry of its two grids,
// for the CUDA backend's batches.
//
// The pupil grid is symmetric about its centre c (mft_fold.hpp: positions c + mu_k and
// c - mu_k), the pass's window about theta = 0. With A's entries e(theta x / 2) and
// e(t) = exp(-2 pi i t), A(theta, c +- mu) = e(theta c / 2) e(+-theta mu / 2): the factor
// e(theta c / 2) is the same for every sample of a row, and B = A^H takes it off again after
// the mask, which multiplies each point of the window by its weight G alone. So the pass is
// computed without it, and then each axis transforms sums s = p(c + mu) + p(c - mu) into the
// window's even part and differences d = p(c + mu) - p(c - mu) into its odd part:
//   F_even(theta) = sum_k cos(pi theta mu_k) s_k,   F_odd(theta) = -i sum_k sin(...) d_k,
// for theta >= 0 only, F(+-theta) = F_even +- F_odd. Where G is even in both axes (a spot, a
// window of radial weights: G(-theta_x, theta_y) = G(theta_x, theta_y) = G(theta_x, -theta_y))
// it keeps each of the four parities (even or odd over y, over x) apart, and the way back is
//   L(c +- mu) = sum_j w_j cos(pi theta_j mu) H_even(theta_j) +- i sum_j 2 sin(...) H_odd,
// w_j = 1 at theta = 0 and 2 elsewhere (each theta > 0 stands for itself and its mirror). The
// -i of the forward and the +i of the inverse meet once per odd axis and cancel, so every
// product is real: four real products of the four parities' P x P blocks with Theta x P
// matrices each way, P = ceil(N / 2) and Theta = ceil(m / 2), against the four complex m x N
// products of the unfolded pass: a quarter of the operations.
//
// Plain C++17 (the kernels include what they need of it), header only: tested in every build.
#include <complex>
#include <cstddef>
#include <optional>
#include <vector>

#include "psfsim/cuda/mft_fold.hpp"
#include "psfsim/mft_matrix.hpp"
#include "psfsim/train_plan.hpp"

namespace psfsim::cuda {

struct FoldedPass {
  int width = 0;  // P: the pupil grid's folded positions (a lone middle sample's difference is 0)
  int half = 0;   // Theta: the window's samples at theta >= 0, the smallest first
  // Column-major, four matrices each, for the even, odd, even and odd parity of an axis (the
  // repetition lets one strided batch take all four parities):
  std::vector<double> forward;  // Theta x P: cos(pi theta_j mu_k), then sin
  std::vector<double> inverse;  // P x Theta: w_j cos(pi theta_j mu_k), then 2 sin
  // G at theta >= 0 on both axes, Theta x Theta, row-major (y, then x).
  std::vector<std::complex<double>> weights;
};

namespace detail {

inline bool even_in_both_axes(const std::vector<std::complex<double>>& g, int m) {
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < m; ++c) {
      const std::complex<double> v = g[static_cast<std::size_t>(r) * m + c];
      if (v != g[static_cast<std::size_t>(m - 1 - r) * m + c] ||
          v != g[static_cast<std::size_t>(r) * m + (m - 1 - c)])
        return false;
    }
  return true;
}

}  // namespace detail

// Whether `pass` folds on a symmetric grid: not an FFT pass (MaskPass::periodic), its window
// centred on the optical axis, its weights even in both axes (not a vortex, four quadrants or
// most maps).
inline bool foldable(const MaskPass& pass) {
  const int m = pass.points;
  return !pass.periodic() && m >= 1 && 2.0 * pass.centre == m - 1 &&
         pass.weights.size() == static_cast<std::size_t>(m) * m &&
         detail::even_in_both_axes(pass.weights, m);
}

// The folded pass of `pass` on the pupil grid folded as `axis`, or none where it does not
// fold (foldable) or the grid is not symmetric.
inline std::optional<FoldedPass> fold_pass(const FoldedAxis& axis, const MaskPass& pass) {
  const int m = pass.points;
  if (!axis.worthwhile() || !foldable(pass)) return std::nullopt;
  FoldedPass f;
  f.width = axis.layout.sums;
  f.half = (m + 1) / 2;
  const int first = m / 2;  // the index of the smallest theta >= 0
  const std::size_t p = static_cast<std::size_t>(f.width), t = static_cast<std::size_t>(f.half);
  std::vector<double> cosines(t * p), sines(t * p);  // [j][k]
  for (std::size_t j = 0; j < t; ++j) {
    const double theta =
        (static_cast<double>(first + static_cast<int>(j)) - pass.centre) * pass.spacing;
    for (std::size_t k = 0; k < p; ++k) {
      const std::complex<double> e = mft_phasor(theta * (axis.magnitude[k] / 2.0));
      cosines[j * p + k] = e.real();
      sines[j * p + k] = -e.imag();
    }
  }
  const auto weight = [&](std::size_t j) { return m % 2 == 1 && j == 0 ? 1.0 : 2.0; };
  for (int parity = 0; parity < 4; ++parity) {
    const std::vector<double>& trig = parity % 2 == 0 ? cosines : sines;
    for (std::size_t k = 0; k < p; ++k)  // column k of Theta x P
      for (std::size_t j = 0; j < t; ++j) f.forward.push_back(trig[j * p + k]);
    for (std::size_t j = 0; j < t; ++j)  // column j of P x Theta
      for (std::size_t k = 0; k < p; ++k)
        f.inverse.push_back((parity % 2 == 0 ? weight(j) : 2.0) * trig[j * p + k]);
  }
  f.weights.reserve(t * t);
  for (std::size_t jy = 0; jy < t; ++jy)
    for (std::size_t jx = 0; jx < t; ++jx)
      f.weights.push_back(pass.weights[(first + jy) * static_cast<std::size_t>(m) + first + jx]);
  return f;
}

}  // namespace psfsim::cuda

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
// for theta >= 0 only, F(+-theta) = F_even +- F_odd, and the way back is
//   L(c +- mu) = sum_j w_j cos(pi theta_j mu) H_even(theta_j) +- i sum_j 2 sin(...) H_odd,
// w_j = 1 at theta = 0 and 2 elsewhere (each theta > 0 stands for itself and its mirror). In
// two dimensions a field has four parities p (even or odd over y, over x), and the products
// are real: four real products of the four parities' P x P blocks with Theta x P matrices
// each way, P = ceil(N / 2) and Theta = ceil(m / 2), against the four complex m x N products
// of the unfolded pass, a quarter of the operations. The mask G splits into four parities
// G_r too, and G_r takes parity q of the field to p = q xor r (a spot, radially symmetric, is
// G_0 alone; a vortex of even charge is G_0 + G_3, cos and i sin of l phi; four quadrants are
// G_3). With R_q the forward products' output, each odd axis carrying a -i the products leave
// out, and the inverse's +i left out likewise, what the inverse products take is
//   W_p = sum_r i^(|p| - |q|) G_r R_q,  q = p xor r,  |p| the odd axes of p,
// which the weights' kernel forms (the factor is 1 wherever r = 0).
//
// Plain C++17 (the kernels include what they need of it), header only: tested in every build.
#include <cmath>
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
  // G_r at theta >= 0 on both axes, Theta x Theta each, row-major (y, then x), r = 2 (odd
  // over x) + (odd over y); only G_0 where the others are zero (`parities` 1, else 4).
  std::vector<std::complex<double>> weights;
  int parities = 1;
};

// How a pass's window folds: its samples at theta >= 0, and for each the index of theta and of
// -theta. A window of m points centred on the axis ((m - 1) / 2) is symmetric; one whole period
// of even m with the axis at m / 2 (MaskPass::periodic) has -theta_max alone, which is also
// +theta_max a period on: it stands for both, each with half its weight.
struct WindowFold {
  int half = 0;          // Theta
  int first = 0;         // the index of the smallest theta >= 0
  bool aliased = false;  // the periodic case: theta_max at index 0, halved
  [[nodiscard]] bool alone(int j) const { return aliased && j == half - 1; }
  [[nodiscard]] int positive(int j) const { return alone(j) ? 0 : first + j; }
  [[nodiscard]] int negative(int j, int m) const { return aliased ? first - j : m - 1 - first - j; }
  [[nodiscard]] double share(int j) const { return alone(j) ? 0.5 : 1.0; }
};

inline std::optional<WindowFold> window_fold(const MaskPass& pass) {
  const int m = pass.points;
  if (m < 1 || pass.weights.size() != static_cast<std::size_t>(m) * m) return std::nullopt;
  if (2.0 * pass.centre == m - 1) return WindowFold{(m + 1) / 2, m / 2, false};
  if (pass.periodic() && m % 2 == 0 && 2.0 * pass.centre == m)
    return WindowFold{m / 2 + 1, m / 2, true};
  return std::nullopt;
}

// The folded pass of `pass` on the pupil grid folded as `axis`, or none where its window does
// not fold (window_fold), the grid is not symmetric, or a period's end does not give the same
// row of A at +theta_max as at -theta_max.
inline std::optional<FoldedPass> fold_pass(const FoldedAxis& axis, const MaskPass& pass) {
  const int m = pass.points;
  const std::optional<WindowFold> window = window_fold(pass);
  if (!axis.worthwhile() || !window) return std::nullopt;
  FoldedPass f;
  f.width = axis.layout.sums;
  f.half = window->half;
  const std::size_t p = static_cast<std::size_t>(f.width), t = static_cast<std::size_t>(f.half);
  const auto theta = [&](std::size_t j) {
    return (static_cast<double>(window->first + static_cast<int>(j)) - pass.centre) * pass.spacing;
  };
  if (window->aliased) {
    const std::size_t n = pass.forward.size() / static_cast<std::size_t>(m);
    for (std::size_t k = 0; k < axis.positive.size(); ++k)
      for (const int sign : {1, -1}) {
        const int i = sign > 0 ? axis.positive[k] : axis.negative[k];
        if (i < 0) continue;
        if (static_cast<std::size_t>(i) >= n) return std::nullopt;
        const double x = axis.centre + sign * axis.magnitude[k];
        const std::complex<double> end = mft_phasor(theta(t - 1) * (x / 2.0));
        if (std::abs(end - pass.forward[static_cast<std::size_t>(i)]) > 1e-9) return std::nullopt;
      }
  }
  std::vector<double> cosines(t * p), sines(t * p);  // [j][k]
  for (std::size_t j = 0; j < t; ++j)
    for (std::size_t k = 0; k < p; ++k) {
      const std::complex<double> e = mft_phasor(theta(j) * (axis.magnitude[k] / 2.0));
      cosines[j * p + k] = e.real();
      sines[j * p + k] = -e.imag();
    }
  const auto weight = [&](std::size_t j) { return theta(j) == 0.0 ? 1.0 : 2.0; };
  for (int parity = 0; parity < 4; ++parity) {
    const std::vector<double>& trig = parity % 2 == 0 ? cosines : sines;
    for (std::size_t k = 0; k < p; ++k)  // column k of Theta x P
      for (std::size_t j = 0; j < t; ++j) f.forward.push_back(trig[j * p + k]);
    for (std::size_t j = 0; j < t; ++j)  // column j of P x Theta
      for (std::size_t k = 0; k < p; ++k)
        f.inverse.push_back((parity % 2 == 0 ? weight(j) : 2.0) * trig[j * p + k]);
  }
  // G_r(ty, tx) = 1/4 sum over the mirrors (sy ty, sx tx) of sy^(r odd over y) sx^(...) G.
  const auto g = [&](int row, int col) {
    return pass.weights[static_cast<std::size_t>(row) * static_cast<std::size_t>(m) +
                        static_cast<std::size_t>(col)];
  };
  f.weights.assign(4 * t * t, {});
  for (int jy = 0; jy < f.half; ++jy)
    for (int jx = 0; jx < f.half; ++jx) {
      const int row = window->positive(jy), col = window->positive(jx);
      const int mirror_row = window->negative(jy, m), mirror_col = window->negative(jx, m);
      const double share = window->share(jy) * window->share(jx);
      const std::complex<double> pp = g(row, col), pn = g(row, mirror_col);
      const std::complex<double> np = g(mirror_row, col), nn = g(mirror_row, mirror_col);
      const std::complex<double> parts[4] = {
          (pp + pn + np + nn) * (share / 4.0),  // r = 0: even, even
          (pp + pn - np - nn) * (share / 4.0),  // r = 1: odd over y
          (pp - pn + np - nn) * (share / 4.0),  // r = 2: odd over x
          (pp - pn - np + nn) * (share / 4.0),  // r = 3: odd over both
      };
      for (std::size_t r = 0; r < 4; ++r) {
        f.weights[(r * t + static_cast<std::size_t>(jy)) * t + static_cast<std::size_t>(jx)] =
            parts[r];
        if (r > 0 && parts[r] != std::complex<double>{}) f.parities = 4;
      }
    }
  if (f.parities == 1) f.weights.resize(t * t);
  return f;
}

}  // namespace psfsim::cuda

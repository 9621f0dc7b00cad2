#pragma once
// The MFT's Fourier matrix (docs/spec.md §6), the one definition every backend builds from:
//   A[q][i] = exp(-2 pi i theta_q xi_i),  theta_q = (q - c) s,  xi_i = x_i / 2,
// row-major K x N, with x_i the plan grid's coordinates and c the output index on the optical
// axis. Rows (y) and columns (x) sample the one grid at the one set of pixel centres, so the
// same matrix serves both axes.
//
// The phase theta_q xi_i, in turns, is formed here in double, the same way for every backend.
// Its exp(-2 pi i .) is the caller's: the CPU evaluates it with the vectorizable polynomial its
// pupils use, the CUDA backend with libm (mft_phasor below). The two differ in the last bit of
// double, and each backend keeps the entries it has always had.
#include <complex>
#include <span>

namespace psfsim {

// One channel's matrix.
struct MftAxis {
  std::span<const double> coordinates;  // x_i, i in [0, N)
  int output = 0;                       // K
  double pixel_centre = 0.0;            // c: the output index where theta = 0
  double pixel_scale = 0.0;             // s, lambda/D per output pixel

  [[nodiscard]] double theta(int q) const noexcept { return (q - pixel_centre) * pixel_scale; }
};

// Writes A's K x N entries row after row to `out`, each `phasor(theta_q xi_i)`: the caller's
// exp(-2 pi i t) of the phase t in turns, in whatever type `out` takes. Returns the iterator
// past the last entry, where the next channel's matrix may follow.
template <typename Phasor, typename OutputIt>
OutputIt write_mft_matrix(const MftAxis& axis, Phasor&& phasor, OutputIt out) {
  for (int q = 0; q < axis.output; ++q) {
    const double theta = axis.theta(q);
    for (const double x : axis.coordinates) *out++ = phasor(theta * (x / 2.0));
  }
  return out;
}

// exp(-2 pi i t) in double through libm's cos and sin, the whole turns of t dropped first
// (exactly: t - nearbyint(t) rounds nothing), so that a large theta xi loses no accuracy to
// the argument of cos and sin.
[[nodiscard]] std::complex<double> mft_phasor(double turns);

}  // namespace psfsim

#pragma once
// The matrix Fourier transform of docs/spec.md §6 (Soummer et al. 2007) on the CPU: K x K intensity
// frames at any pixel scale s from N x N pupils, as two complex BLAS products per frame,
//   E = A P A^T,  A[k][i] = exp(-2 pi i theta_k xi_i),  theta_k = (k - floor(K/2)) s,
//   xi_i = x_i / 2 (x_i of the §1 grid; rows and columns share it, so A serves both axes).
#include <complex>
#include <vector>

#include "psfsim/enums.hpp"

namespace psfsim::cpu {

// Pupil rows [row_lo, row_hi) and columns [col_lo, col_hi) outside which every frame is zero
// (the aperture's bounding box), so that the products skip them.
struct MftSupport {
  int row_lo = 0;
  int row_hi = 0;
  int col_lo = 0;
  int col_hi = 0;

  [[nodiscard]] int rows() const noexcept { return row_hi - row_lo; }
  [[nodiscard]] int columns() const noexcept { return col_hi - col_lo; }
  [[nodiscard]] bool empty() const noexcept { return rows() == 0 || columns() == 0; }
};

template <typename Real>
class MftPropagator {
 public:
  using Complex = std::complex<Real>;

  // samples N, output K, pixel_scale s in lambda/D per pixel; threads <= 0: every core.
  // Throws InputError for N < 1, K < 1, a non-finite s or centre, or |s| too large.
  // `pixel_centre`: the output index on the optical axis (theta = 0); below 0, floor(K/2).
  // An oversampled detector puts it between samples (docs/spec.md §6).
  MftPropagator(int samples, int output, double pixel_scale, Grid grid, int threads = 0,
                double pixel_centre = -1.0);

  // `pupils`: count frames of N x N (row = y, column = x of §1), contiguous. Writes
  // scale * |E|^2 of each frame to `out` (count frames of K x K). Not reentrant: it uses the
  // object's work buffers, and holds OpenBLAS's process-wide thread count at 1 while it runs.
  void propagate(const Complex* pupils, int count, Real* out, Real scale);
  // The same, reading only the support of the pupils (0 <= lo <= hi <= N on both axes).
  void propagate(const Complex* pupils, int count, Real* out, Real scale,
                 const MftSupport& support);

  [[nodiscard]] int samples() const noexcept { return samples_; }
  [[nodiscard]] int output() const noexcept { return output_; }
  [[nodiscard]] int threads() const noexcept { return threads_; }
  // A, K x N, row-major.
  [[nodiscard]] const std::vector<Complex>& matrix() const noexcept { return matrix_; }

  // The floor docs/spec.md §10 compares propagate() with: seconds for the same two products of
  // these
  // shapes, (N x N)(N x K) and (K x N)(N x K) per frame, on arbitrary data, as plain
  // per-frame BLAS calls: frames spread over `threads` threads where there are enough of
  // them, else OpenBLAS's own threads on each call; the median of `repeats` runs after a
  // warm-up.
  [[nodiscard]] static double bare_products_seconds(int samples, int output, int count, int threads,
                                                    int repeats);

 private:
  void reserve_workers(int workers);  // work buffers for this many threads, on first use
  void propagate_block(const Complex* pupils, int frames, Real* out, Real scale,
                       const MftSupport& support, Complex* rows, Complex* field) const;
  void propagate_split(const Complex* pupil, Real* out, Real scale, const MftSupport& support);

  int samples_;
  int output_;
  int threads_;
  int block_frames_;  // frames per first product (a batched GEMM) and per work buffer
  std::vector<Complex> matrix_;
  std::vector<Complex> rows_;   // per worker: block_frames_ x (N x K), P A^T
  std::vector<Complex> field_;  // per worker: K x K, E
};

extern template class MftPropagator<float>;
extern template class MftPropagator<double>;

}  // namespace psfsim::cpu

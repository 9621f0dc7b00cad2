// Compiled twice, with PSFSIM_ROW_ISA = generic or avx2 (and the matching -m flags).
#include "pupil_row_kernel.hpp"

#include <algorithm>

#include "psfsim/pupil_math.hpp"
#include "sincos_turns.hpp"

namespace psfsim::cpu::PSFSIM_ROW_ISA {
namespace {

// out[a] = sum_b table[a][b] y^b: the row's y-dependence folded into x-coefficients.
void collapse_row(const double* table, int stride, double y, double* out) {
  for (int a = 0; a < stride; ++a) {
    const double* t = table + a * stride;
    double v = t[stride - 1];
    for (int b = stride - 2; b >= 0; --b) v = v * y + t[b];
    out[a] = v;
  }
}

// out[c] = sum_a coeffs[a] x[c]^a, one degree at a time across the row (vectorizes over c).
void horner_row(const double* coeffs, int stride, const double* __restrict x,
                double* __restrict out, int n) {
  const double top = coeffs[stride - 1];
  for (int c = 0; c < n; ++c) out[c] = top;
  for (int a = stride - 2; a >= 0; --a) {
    const double k = coeffs[a];
    for (int c = 0; c < n; ++c) out[c] = out[c] * x[c] + k;
  }
}

// Writes all n pupil samples of the row; only the aperture span is computed.
template <typename T>
void build_row(const PupilRow& r, std::complex<T>* out_complex) {
  const int lo = r.lo;
  const int span = r.hi - r.lo;
  std::fill(out_complex, out_complex + r.n, std::complex<T>{});
  if (span <= 0) return;
  const double* __restrict x = r.x + lo;
  double* __restrict w = r.phase;
  collapse_row(r.plain, r.stride, r.y, r.row_coeffs);
  horner_row(r.row_coeffs, r.stride, x, w, span);
  if (r.with_rho != nullptr) {
    const double y = r.y;
    double* __restrict rho = r.rho;
    for (int c = 0; c < span; ++c) rho[c] = pupil::radius(x[c], y);
    collapse_row(r.with_rho, r.stride, y, r.row_rho_coeffs);
    horner_row(r.row_rho_coeffs, r.stride, x, r.rho_part, span);
    const double* __restrict part = r.rho_part;
    for (int c = 0; c < span; ++c) w[c] += rho[c] * part[c];
  }
  T* __restrict out = reinterpret_cast<T*>(out_complex + lo);  // interleaved re, im
  const double* __restrict col_shift = r.col_shift + lo;
  const double row_shift = r.row_shift;
  for (int c = 0; c < span; ++c) {
    const SinCos<T> e = sincos_turns<T>(w[c] + row_shift + col_shift[c]);
    out[2 * c] = e.cos;
    out[2 * c + 1] = e.sin;
  }
  std::fill(out_complex + r.obscured_lo, out_complex + r.obscured_hi, std::complex<T>{});
}

}  // namespace

void pupil_row(const PupilRow& row, std::complex<float>* out) { build_row(row, out); }
void pupil_row(const PupilRow& row, std::complex<double>* out) { build_row(row, out); }

}  // namespace psfsim::cpu::PSFSIM_ROW_ISA

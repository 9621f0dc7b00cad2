// Compiled once per instruction set, with PSFSIM_ROW_ISA = generic, avx2 or avx512 (and the
// matching -m flags; see cpu/CMakeLists.txt).
#include "pupil_row_kernel.hpp"

#include <algorithm>
#include <cmath>

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

template <typename T>
void store(T* __restrict out, int c, const SinCos<T>& e) {
  out[2 * c] = e.cos;
  out[2 * c + 1] = e.sin;
}

// Phase and sincos in one sweep, the degree known at compile time so that Horner's rule
// unrolls inside the vectorized loop: no phase row goes through memory.
// `Wide`: the row's phase may pass 2^28 waves (sincos_turns).
template <int Stride, bool Wide, typename T>
void fused_row(const double* __restrict k, const double* __restrict x,
               const double* __restrict col_shift, double row_shift, T* __restrict out, int span) {
  for (int c = 0; c < span; ++c) {
    double w = k[Stride - 1];
    for (int a = Stride - 2; a >= 0; --a) w = w * x[c] + k[a];
    store(out, c, sincos_turns<T, Wide>(w + row_shift + col_shift[c]));
  }
}

// The same with the rho-multiplied table (odd Seidel powers such as rho^2 cos(phi) = rho x).
// rho needs a square root per sample, the costliest step here: `Root` is the type it is
// taken in. Single precision takes it in float where the row's rho polynomial is small
// enough that float's 1.2e-7 relative error in rho stays below 1.2e-7 waves of phase.
template <int Stride, bool Wide, typename Root, typename T>
void fused_row_rho(const double* __restrict k, const double* __restrict k_rho, double y,
                   const double* __restrict x, const double* __restrict col_shift, double row_shift,
                   T* __restrict out, int span) {
  const double y2 = y * y;
  for (int c = 0; c < span; ++c) {
    double w = k[Stride - 1];
    double v = k_rho[Stride - 1];
    for (int a = Stride - 2; a >= 0; --a) {
      w = w * x[c] + k[a];
      v = v * x[c] + k_rho[a];
    }
    const double rho2 = x[c] * x[c] + y2;
    const double rho = static_cast<double>(std::sqrt(static_cast<Root>(rho2)));
    store(out, c, sincos_turns<T, Wide>(w + rho * v + row_shift + col_shift[c]));
  }
}

// Whether rho may be taken in float for this row: |v| <= sum |k_rho| on |x| <= 1.
bool float_rho_suffices(const double* k_rho, int stride) {
  double bound = 0.0;
  for (int a = 0; a < stride; ++a) bound += std::fabs(k_rho[a]);
  return bound <= 1.0;
}

template <int Stride, bool Wide, typename T>
void fused_row_any(const double* k, const double* k_rho, double y, const double* x,
                   const double* col_shift, double row_shift, T* out, int span) {
  if (k_rho == nullptr) fused_row<Stride, Wide>(k, x, col_shift, row_shift, out, span);
  else if (float_rho_suffices(k_rho, Stride))
    fused_row_rho<Stride, Wide, T>(k, k_rho, y, x, col_shift, row_shift, out, span);
  else fused_row_rho<Stride, Wide, double>(k, k_rho, y, x, col_shift, row_shift, out, span);
}

// False for degrees above 7 (Noll j > 36), which take the general path.
template <bool Wide, typename T>
bool try_fused_row(int stride, const double* k, const double* k_rho, double y, const double* x,
                   const double* col_shift, double row_shift, T* out, int span) {
  switch (stride) {
    case 1: fused_row_any<1, Wide>(k, k_rho, y, x, col_shift, row_shift, out, span); return true;
    case 2: fused_row_any<2, Wide>(k, k_rho, y, x, col_shift, row_shift, out, span); return true;
    case 3: fused_row_any<3, Wide>(k, k_rho, y, x, col_shift, row_shift, out, span); return true;
    case 4: fused_row_any<4, Wide>(k, k_rho, y, x, col_shift, row_shift, out, span); return true;
    case 5: fused_row_any<5, Wide>(k, k_rho, y, x, col_shift, row_shift, out, span); return true;
    case 6: fused_row_any<6, Wide>(k, k_rho, y, x, col_shift, row_shift, out, span); return true;
    case 7: fused_row_any<7, Wide>(k, k_rho, y, x, col_shift, row_shift, out, span); return true;
    case 8: fused_row_any<8, Wide>(k, k_rho, y, x, col_shift, row_shift, out, span); return true;
    default: return false;
  }
}

template <bool Wide, typename T>
void phase_row(const PupilRow& r, const double* __restrict x, const double* __restrict col_shift,
               T* __restrict out, int span) {
  const bool fused = try_fused_row<Wide>(r.stride, r.row_coeffs,
                                         r.with_rho != nullptr ? r.row_rho_coeffs : nullptr, r.y, x,
                                         col_shift, r.row_shift, out, span);
  if (fused) return;
  double* __restrict w = r.phase;
  horner_row(r.row_coeffs, r.stride, x, w, span);
  if (r.with_rho != nullptr) {
    const double y = r.y;
    double* __restrict rho = r.rho;
    for (int c = 0; c < span; ++c) rho[c] = pupil::radius(x[c], y);
    horner_row(r.row_rho_coeffs, r.stride, x, r.rho_part, span);
    const double* __restrict part = r.rho_part;
    for (int c = 0; c < span; ++c) w[c] += rho[c] * part[c];
  }
  const double row_shift = r.row_shift;
  for (int c = 0; c < span; ++c)
    store(out, c, sincos_turns<T, Wide>(w[c] + row_shift + col_shift[c]));
}

// Writes all n pupil samples of the row; only the aperture span is computed.
template <typename T>
void build_row(const PupilRow& r, std::complex<T>* out_complex) {
  const int lo = r.lo;
  const int span = std::max(0, r.hi - r.lo);
  std::fill(out_complex, out_complex + lo, std::complex<T>{});
  std::fill(out_complex + lo + span, out_complex + r.n, std::complex<T>{});
  if (span == 0) return;
  const double* __restrict x = r.x + lo;
  const double* __restrict col_shift = r.col_shift + lo;
  if (r.opd != nullptr) {  // the OPD rides on the column shifts: every phase path adds those
    const double* __restrict opd = r.opd + lo;
    double* __restrict shifted = r.opd_shift;
    const double scale = r.opd_scale;
    // Whole waves dropped exactly first, so that a map of 1e9 waves adds no rounding here.
    for (int c = 0; c < span; ++c) {
      const double waves = scale * opd[c];
      shifted[c] = col_shift[c] + (waves - round_nearest(waves));
    }
    col_shift = shifted;
  }
  T* __restrict out = reinterpret_cast<T*>(out_complex + lo);  // interleaved re, im
  collapse_row(r.plain, r.stride, r.y, r.row_coeffs);
  if (r.with_rho != nullptr) collapse_row(r.with_rho, r.stride, r.y, r.row_rho_coeffs);
  if (r.wide) phase_row<true>(r, x, col_shift, out, span);
  else phase_row<false>(r, x, col_shift, out, span);
  if (r.amplitude != nullptr) {
    const double* __restrict a = r.amplitude + lo;
    for (int c = 0; c < span; ++c) {
      const T v = static_cast<T>(a[c]);
      out[2 * c] = v == T(0) ? T(0) : out[2 * c] * v;
      out[2 * c + 1] = v == T(0) ? T(0) : out[2 * c + 1] * v;
    }
  }
  std::fill(out_complex + r.obscured_lo, out_complex + r.obscured_hi, std::complex<T>{});
}

}  // namespace

void pupil_row(const PupilRow& row, std::complex<float>* out) { build_row(row, out); }
void pupil_row(const PupilRow& row, std::complex<double>* out) { build_row(row, out); }

}  // namespace psfsim::cpu::PSFSIM_ROW_ISA

#pragma once
// The per-row inner loops of the pupil build, compiled once per instruction set (generic
// x86-64, AVX2, AVX-512; see cpu/CMakeLists.txt) and chosen at run time. The variants compute
// bit-identical results: FMA contraction is off in both.
#include <complex>

namespace psfsim::cpu {

struct PupilRow {
  const double* plain = nullptr;     // phase table, (degree+1)^2, [a * stride + b]
  const double* with_rho = nullptr;  // rho-multiplied table, or nullptr when unused
  int stride = 1;
  bool wide = false;  // the phase may reach 2^28 waves (wide_phase)
  double y = 0.0;
  double row_shift = 0.0;
  const double* x = nullptr;          // n column coordinates
  const double* col_shift = nullptr;  // n column shift modulations
  // The aperture in this row: columns [lo, hi) minus the obscured [obscured_lo, obscured_hi).
  int lo = 0;
  int hi = 0;
  int obscured_lo = 0;
  int obscured_hi = 0;
  // docs/spec.md §7's maps, n-long rows or null: A multiplies each sample (0 writes a zero), the
  // OPD
  // (waves, times opd_scale) joins the phase.
  const double* amplitude = nullptr;
  const double* opd = nullptr;
  double opd_scale = 1.0;
  int n = 0;
  // n-long scratch rows and stride-long coefficient scratch
  double* phase = nullptr;
  double* rho = nullptr;
  double* rho_part = nullptr;
  double* row_coeffs = nullptr;
  double* row_rho_coeffs = nullptr;
  double* opd_shift = nullptr;  // n-long: col_shift plus the OPD
};

// Whether a frame's phase, with the shifts (below 1 each) and the OPD's fraction, may reach
// 2^28 waves, beyond which sincos_turns must drop whole waves first: the sum of |c_ab| bounds
// the tables on |x|, |y| <= 1, and rho <= sqrt 2 there.
[[nodiscard]] bool wide_phase(const double* plain, const double* with_rho, int stride);

template <typename T>
using PupilRowKernel = void (*)(const PupilRow&, std::complex<T>* out);

#define PSFSIM_DECLARE_ROW_KERNELS(isa)                           \
  namespace isa {                                                 \
  void pupil_row(const PupilRow& row, std::complex<float>* out);  \
  void pupil_row(const PupilRow& row, std::complex<double>* out); \
  }
PSFSIM_DECLARE_ROW_KERNELS(generic)
PSFSIM_DECLARE_ROW_KERNELS(avx2)
PSFSIM_DECLARE_ROW_KERNELS(avx512)
#undef PSFSIM_DECLARE_ROW_KERNELS

// The widest variant this CPU runs.
template <typename T>
[[nodiscard]] PupilRowKernel<T> best_pupil_row_kernel();

}  // namespace psfsim::cpu

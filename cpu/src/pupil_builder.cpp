#include "pupil_builder.hpp"

#include <algorithm>
#include <cmath>

#include "pupil_row_kernel.hpp"

namespace psfsim::cpu {
namespace {

enum class Isa { generic, avx2, avx512 };

Isa detect_isa() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
    return Isa::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::avx2;
  return Isa::generic;
}

const Isa isa = detect_isa();

}  // namespace

template <typename T>
PupilRowKernel<T> best_pupil_row_kernel() {
  switch (isa) {
    case Isa::avx512: return static_cast<PupilRowKernel<T>>(&avx512::pupil_row);
    case Isa::avx2: return static_cast<PupilRowKernel<T>>(&avx2::pupil_row);
    case Isa::generic: break;
  }
  return static_cast<PupilRowKernel<T>>(&generic::pupil_row);
}

bool wide_phase(const double* plain, const double* with_rho, int stride) {
  double bound = 3.0;
  for (int i = 0; i < stride * stride; ++i) {
    bound += std::fabs(plain[i]);
    if (with_rho != nullptr) bound += 1.5 * std::fabs(with_rho[i]);
  }
  return bound >= 0x1p28;
}

template PupilRowKernel<float> best_pupil_row_kernel<float>();
template PupilRowKernel<double> best_pupil_row_kernel<double>();

PupilBuilder::PupilBuilder(const PsfPlan& plan)
    : facts_((static_cast<void>(plan.sampled_pupil()), plan.pupil)),  // refuses a plan without
      samples_(plan.samples),
      padded_(plan.padded),
      offset_(facts_->offset) {}

template <typename T>
void PupilBuilder::build(const AberrationPolynomial& phase, std::complex<T>* field,
                         PupilScratch& scratch, double opd_scale) const {
  clear_outer_rows(field);
  build_rows(phase, field, scratch, 0, samples_, opd_scale);
}

template <typename T>
void PupilBuilder::clear_outer_rows(std::complex<T>* field) const {
  for (int r = 0; r < padded_; ++r) {
    if (r == offset_) r += samples_;
    if (r >= padded_) break;
    std::complex<T>* row = field + static_cast<std::size_t>(r) * padded_ + offset_;
    std::fill(row, row + samples_, std::complex<T>{});
  }
}

template <typename T>
void PupilBuilder::build_rows(const AberrationPolynomial& phase, std::complex<T>* field,
                              PupilScratch& s, int first, int last, double opd_scale) const {
  const int n = samples_;
  const int stride = phase.stride();
  s.phase.resize(n);
  s.rho.resize(n);
  s.rho_part.resize(n);
  s.row_coeffs.resize(stride);
  s.row_rho_coeffs.resize(stride);
  const double* amplitude = facts_->amplitude_of(phase.batch_index);
  const double* opd = facts_->opd_of(phase.batch_index);
  if (opd != nullptr) s.opd_shift.resize(n);
  // The constant term is piston, which changes no intensity at any wavelength: without it
  // 1e6 waves of Z1, 1e9 at a band's shortest wavelength, add no rounding to the phase.
  s.plain.assign(phase.plain.begin(), phase.plain.end());
  s.plain[0] = 0.0;
  PupilRow row;
  row.plain = s.plain.data();
  row.with_rho = phase.uses_rho() ? phase.with_rho.data() : nullptr;
  row.stride = stride;
  row.wide = wide_phase(row.plain, row.with_rho, stride);
  row.x = facts_->coordinates.data();
  row.col_shift = facts_->shift_waves.data() + offset_;
  row.n = n;
  row.phase = s.phase.data();
  row.rho = s.rho.data();
  row.rho_part = s.rho_part.data();
  row.row_coeffs = s.row_coeffs.data();
  row.row_rho_coeffs = s.row_rho_coeffs.data();
  row.opd_shift = s.opd_shift.data();
  row.opd_scale = opd_scale;
  const PupilRowKernel<T> kernel = best_pupil_row_kernel<T>();

  for (int r = first; r < last; ++r) {
    const ApertureSpan& span = facts_->spans[r];
    row.y = facts_->coordinates[r];
    row.row_shift = facts_->shift_waves[offset_ + r];
    row.lo = span.lo;
    row.hi = span.hi;
    row.obscured_lo = span.obscured_lo;
    row.obscured_hi = span.obscured_hi;
    const std::size_t at = static_cast<std::size_t>(r) * n;
    row.amplitude = amplitude != nullptr ? amplitude + at : nullptr;
    row.opd = opd != nullptr ? opd + at : nullptr;
    kernel(row, field + static_cast<std::size_t>(offset_ + r) * padded_ + offset_);
  }
}

template void PupilBuilder::build<float>(const AberrationPolynomial&, std::complex<float>*,
                                         PupilScratch&, double) const;
template void PupilBuilder::build<double>(const AberrationPolynomial&, std::complex<double>*,
                                          PupilScratch&, double) const;
template void PupilBuilder::clear_outer_rows<float>(std::complex<float>*) const;
template void PupilBuilder::clear_outer_rows<double>(std::complex<double>*) const;
template void PupilBuilder::build_rows<float>(const AberrationPolynomial&, std::complex<float>*,
                                              PupilScratch&, int, int, double) const;
template void PupilBuilder::build_rows<double>(const AberrationPolynomial&, std::complex<double>*,
                                               PupilScratch&, int, int, double) const;

}  // namespace psfsim::cpu

#include "pupil_builder.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "psfsim/pupil_math.hpp"
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

template PupilRowKernel<float> best_pupil_row_kernel<float>();
template PupilRowKernel<double> best_pupil_row_kernel<double>();

const char* best_pupil_row_isa() {
  return isa == Isa::avx512 ? "avx512" : (isa == Isa::avx2 ? "avx2" : "generic");
}

PupilBuilder::PupilBuilder(const PsfPlan& plan)
    : samples_(plan.samples),
      padded_(plan.padded),
      offset_(pupil::pad_offset(plan.samples, plan.padded)),
      x_(plan.samples),
      shift_(plan.samples),
      spans_(plan.samples) {
  for (int i = 0; i < samples_; ++i) {
    x_[i] = pupil::coordinate(i, samples_, plan.grid);
    shift_[i] = pupil::shift_waves(offset_ + i, padded_);
  }
  for (int r = 0; r < samples_; ++r) {
    std::vector<bool> inside_disk(samples_), inside(samples_);
    for (int c = 0; c < samples_; ++c) {
      const double rho = pupil::radius(x_[c], x_[r]);
      inside_disk[c] = rho <= 1.0;
      inside[c] = pupil::inside_aperture(rho, plan.obscuration);
      aperture_sum_ += inside[c] ? 1 : 0;
    }
    ApertureSpan& s = spans_[r];
    const auto first_in = std::find(inside_disk.begin(), inside_disk.end(), true);
    s.lo = static_cast<int>(first_in - inside_disk.begin());
    s.hi = s.lo + static_cast<int>(std::count(inside_disk.begin(), inside_disk.end(), true));
    s.obscured_lo = s.obscured_hi = s.lo;
    for (int c = s.lo; c < s.hi; ++c)
      if (!inside[c]) {
        if (s.obscured_hi == s.lo) s.obscured_lo = c;
        s.obscured_hi = c + 1;
      }
    for (int c = 0; c < samples_; ++c) {  // the spans must reproduce the exact test
      const bool in_span = c >= s.lo && c < s.hi && !(c >= s.obscured_lo && c < s.obscured_hi);
      if (in_span != inside[c])
        throw std::logic_error("aperture row " + std::to_string(r) + " is not a span");
    }
  }
}

template <typename T>
void PupilBuilder::build(const PhasePolynomial& phase, std::complex<T>* field,
                         PupilScratch& scratch) const {
  clear_outer_rows(field);
  build_rows(phase, field, scratch, 0, samples_);
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
void PupilBuilder::build_rows(const PhasePolynomial& phase, std::complex<T>* field,
                              PupilScratch& s, int first, int last) const {
  const int n = samples_;
  const int stride = phase.stride();
  s.phase.resize(n);
  s.rho.resize(n);
  s.rho_part.resize(n);
  s.row_coeffs.resize(stride);
  s.row_rho_coeffs.resize(stride);
  PupilRow row;
  row.plain = phase.plain.data();
  row.with_rho = phase.uses_rho() ? phase.with_rho.data() : nullptr;
  row.stride = stride;
  row.x = x_.data();
  row.col_shift = shift_.data();
  row.n = n;
  row.phase = s.phase.data();
  row.rho = s.rho.data();
  row.rho_part = s.rho_part.data();
  row.row_coeffs = s.row_coeffs.data();
  row.row_rho_coeffs = s.row_rho_coeffs.data();
  const PupilRowKernel<T> kernel = best_pupil_row_kernel<T>();

  for (int r = first; r < last; ++r) {
    row.y = x_[r];
    row.row_shift = shift_[r];
    row.lo = spans_[r].lo;
    row.hi = spans_[r].hi;
    row.obscured_lo = spans_[r].obscured_lo;
    row.obscured_hi = spans_[r].obscured_hi;
    kernel(row, field + static_cast<std::size_t>(offset_ + r) * padded_ + offset_);
  }
}

template void PupilBuilder::build<float>(const PhasePolynomial&, std::complex<float>*,
                                         PupilScratch&) const;
template void PupilBuilder::build<double>(const PhasePolynomial&, std::complex<double>*,
                                          PupilScratch&) const;
template void PupilBuilder::clear_outer_rows<float>(std::complex<float>*) const;
template void PupilBuilder::clear_outer_rows<double>(std::complex<double>*) const;
template void PupilBuilder::build_rows<float>(const PhasePolynomial&, std::complex<float>*,
                                              PupilScratch&, int, int) const;
template void PupilBuilder::build_rows<double>(const PhasePolynomial&, std::complex<double>*,
                                               PupilScratch&, int, int) const;

}  // namespace psfsim::cpu

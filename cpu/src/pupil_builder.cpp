#include "pupil_builder.hpp"

#include <algorithm>

#include "psfsim/pupil_math.hpp"
#include "sincos_turns.hpp"

namespace psfsim::cpu {
namespace {

// Collapses the y-dependence of a coefficient table for one row: out[a] = sum_b t[a][b] y^b.
void collapse_row(const std::vector<double>& table, int stride, double y, double* out) {
  for (int a = 0; a < stride; ++a) {
    const double* t = table.data() + a * stride;
    double v = t[stride - 1];
    for (int b = stride - 2; b >= 0; --b) v = v * y + t[b];
    out[a] = v;
  }
}

// out[c] = sum_a coeffs[a] x[c]^a, by Horner's rule one degree at a time across the row.
void horner_row(const double* coeffs, int stride, const double* x, double* out, int n) {
  const double top = coeffs[stride - 1];
  for (int c = 0; c < n; ++c) out[c] = top;
  for (int a = stride - 2; a >= 0; --a) {
    const double k = coeffs[a];
    for (int c = 0; c < n; ++c) out[c] = out[c] * x[c] + k;
  }
}

}  // namespace

PupilBuilder::PupilBuilder(const PsfPlan& plan)
    : samples_(plan.samples),
      padded_(plan.padded),
      offset_(pupil::pad_offset(plan.samples, plan.padded)),
      obscuration_(plan.obscuration),
      x_(plan.samples),
      shift_(plan.samples) {
  for (int i = 0; i < samples_; ++i) {
    x_[i] = pupil::coordinate(i, samples_, plan.grid);
    shift_[i] = pupil::shift_waves(offset_ + i, padded_);
  }
  for (int r = 0; r < samples_; ++r)
    for (int c = 0; c < samples_; ++c)
      aperture_sum_ += pupil::inside_aperture(pupil::radius(x_[c], x_[r]), obscuration_) ? 1 : 0;
}

template <typename T>
void PupilBuilder::build(const PhasePolynomial& phase, std::complex<T>* field,
                         PupilScratch& scratch) const {
  build_rows(phase, field, scratch, 0, samples_);
}

template <typename T>
void PupilBuilder::build_rows(const PhasePolynomial& phase, std::complex<T>* field,
                              PupilScratch& s, int first, int last) const {
  const int n = samples_;
  const int stride = phase.stride();
  const bool rho_terms = phase.uses_rho();
  s.phase.resize(n);
  s.rho.resize(n);
  s.rho_part.resize(n);
  s.row_coeffs.resize(stride);
  s.row_rho_coeffs.resize(stride);
  const double* x = x_.data();
  double* w = s.phase.data();
  double* rho = s.rho.data();

  for (int r = first; r < last; ++r) {
    const double y = x_[r];
    collapse_row(phase.plain, stride, y, s.row_coeffs.data());
    horner_row(s.row_coeffs.data(), stride, x, w, n);
    for (int c = 0; c < n; ++c) rho[c] = pupil::radius(x[c], y);
    if (rho_terms) {
      collapse_row(phase.with_rho, stride, y, s.row_rho_coeffs.data());
      horner_row(s.row_rho_coeffs.data(), stride, x, s.rho_part.data(), n);
      for (int c = 0; c < n; ++c) w[c] += rho[c] * s.rho_part[c];
    }

    std::complex<T>* row = field + static_cast<std::size_t>(offset_ + r) * padded_;
    std::fill(row, row + offset_, std::complex<T>{});
    std::fill(row + offset_ + n, row + padded_, std::complex<T>{});
    T* out = reinterpret_cast<T*>(row + offset_);  // interleaved re, im
    const double row_shift = shift_[r];
    const double* col_shift = shift_.data();
    const double eps = obscuration_;
    for (int c = 0; c < n; ++c) {
      const SinCos<T> e = sincos_turns<T>(w[c] + row_shift + col_shift[c]);
      const T a = pupil::inside_aperture(rho[c], eps) ? T(1) : T(0);
      out[2 * c] = a * e.cos;
      out[2 * c + 1] = a * e.sin;
    }
  }
}

template void PupilBuilder::build<float>(const PhasePolynomial&, std::complex<float>*,
                                         PupilScratch&) const;
template void PupilBuilder::build<double>(const PhasePolynomial&, std::complex<double>*,
                                          PupilScratch&) const;
template void PupilBuilder::build_rows<float>(const PhasePolynomial&, std::complex<float>*,
                                              PupilScratch&, int, int) const;
template void PupilBuilder::build_rows<double>(const PhasePolynomial&, std::complex<double>*,
                                               PupilScratch&, int, int) const;

}  // namespace psfsim::cpu

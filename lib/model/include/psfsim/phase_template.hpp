#pragma once
// Frames that hold the same terms and differ only in their values (a --random draw, a
// table of coefficients from Python) compile without building each frame's Aberration:
// the template knows the terms' order, their tables and their scale once, and a frame
// costs its scaled sums into a polynomial whose memory is reused. Its polynomials are
// those compile_phase makes of the same frame, bit for bit (tests/phase_template_test.cpp).
#include <optional>
#include <span>
#include <vector>

#include "psfsim/aberration.hpp"
#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/aberration_sources.hpp"

namespace psfsim {

class PhaseTemplate {
 public:
  // Frames of `fixed` with each of `ids` set over it in turn (set_term), then in waves at
  // `waves_per_unit` (PsfRun's in_waves), at a table degree of at least `degree`. None for
  // ids that place the frame in the field, whose terms then depend on where it lies.
  [[nodiscard]] static std::optional<PhaseTemplate> make(const Aberration& fixed,
                                                         std::span<const TermId> ids, int degree,
                                                         double waves_per_unit);

  [[nodiscard]] int degree() const noexcept { return degree_; }
  // One frame: values[k * stride] is ids[k]'s value as set_term stores it (stored_value).
  void compile(const double* values, std::size_t stride, AberrationPolynomial& out) const;

 private:
  struct Term {
    int column = -1;      // in the values; -1: `waves`, the fixed term's
    double waves = 0.0;   // a fixed term's, already in waves
    SeidelTerm seidel{};  // its l, m and azimuth, for a Seidel term
    int zernike = -1;     // its table in zernike_tables_, for a Zernike term
  };
  std::vector<Term> seidel_;   // in compile_phase's order: the Seidel terms, then
  std::vector<Term> zernike_;  // the Zernike ones, each as the frame lists them
  std::vector<std::vector<double>> zernike_tables_;
  int degree_ = 0;
  double waves_per_unit_ = 1.0;
};

}  // namespace psfsim

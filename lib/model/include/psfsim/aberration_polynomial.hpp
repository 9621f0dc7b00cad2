#pragma once
// Every Seidel and Zernike term is a polynomial in x and y (times rho for odd Seidel powers),
// so a frame's whole phase compiles to two small coefficient tables. Backends evaluate those
// with Horner's rule: no trigonometry, no per-term loops, vectorizable on the CPU and cheap
// on the GPU.
#include <vector>

#include "psfsim/aberration.hpp"

namespace psfsim {

struct AberrationPolynomial {
  int degree = 0;  // tables are (degree+1) x (degree+1), index [a * (degree+1) + b] for x^a y^b
  std::vector<double> plain;     // W contribution: sum c_ab x^a y^b
  std::vector<double> with_rho;  // W contribution: rho * sum d_ab x^a y^b (zero when unused)
  // The frame's index in the batch, which picks its pupil maps (docs/spec.md §7) where there is one
  // per frame; -1 for the aberration-free reference, which has no OPD map.
  long long batch_index = 0;

  [[nodiscard]] int stride() const noexcept { return degree + 1; }
  [[nodiscard]] bool uses_rho() const noexcept;
  // Direct evaluation, in waves; for tests and reference, not for speed.
  [[nodiscard]] double evaluate(double x, double y) const;
};

// Both precisions evaluate the phase in double; psfsim takes only the frames whose
// polynomial evaluates to within this many waves (docs/physical-optics.md).
inline constexpr double phase_resolution_waves = 1e-6;

// The rounding of Z_j's table (unit coefficient) in double, in waves: 2^-52 times the largest
// sum over its coefficients of |c_ab x^a y^b| on the pupil. High orders cancel large
// coefficients (Z301's sum to some 1e9 for a term of at most 7): measured against a long
// double evaluation of the radial formula, the error stays below this for every j <= 325.
[[nodiscard]] double zernike_rounding(int j);
// The same for all of `terms` at their coefficients: Seidel terms' coefficients are positive
// and their sums at most |W|, so only Zernikes need the tables.
[[nodiscard]] double phase_rounding(const Aberration& terms);

// Smallest table degree that holds every term of `terms`.
[[nodiscard]] int required_degree(const Aberration& terms);
// `degree` must be >= required_degree(terms); a common degree gives a batch one layout.
[[nodiscard]] AberrationPolynomial compile_phase(const Aberration& terms, int degree);
[[nodiscard]] AberrationPolynomial compile_phase(const Aberration& terms);

// compile_phase's steps, for a caller that compiles many frames of one shape into
// polynomials it reuses (PhaseTemplate): the same arithmetic in the same order, so both
// agree bit for bit. clear_tables zeroes both tables at `degree`, reusing their memory.
void clear_tables(AberrationPolynomial& poly, int degree);
void add_term(AberrationPolynomial& poly, const SeidelTerm& t);
// `zernike` is zernike_table(j, poly.stride()).
void add_term(AberrationPolynomial& poly, const std::vector<double>& zernike, double waves);
// Z_j (Noll, unit coefficient) as a table of `stride`, kept by the calling thread.
[[nodiscard]] const std::vector<double>& zernike_table(int j, int stride);

}  // namespace psfsim

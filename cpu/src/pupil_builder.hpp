#pragma once
// Builds one frame's pupil rows straight into the FFT input: grid, aperture, phase and the
// shift modulation in one pass per row, with every inner loop a plain vectorizable sweep.
#include <complex>
#include <vector>

#include "psfsim/phase_polynomial.hpp"
#include "psfsim/psf_plan.hpp"

namespace psfsim::cpu {

// Per-thread working rows, so that frames can be built concurrently.
struct PupilScratch {
  std::vector<double> phase;
  std::vector<double> rho_part;
  std::vector<double> rho;
  std::vector<double> row_coeffs;
  std::vector<double> row_rho_coeffs;
};

class PupilBuilder {
 public:
  explicit PupilBuilder(const PsfPlan& plan);

  // Writes the N x N pupil window of the M x M array `field` and zeroes the rest of the
  // pupil columns (which the in-place column FFT fills); the columns outside the window are
  // never touched and must hold zeros.
  template <typename T>
  void build(const PhasePolynomial& phase, std::complex<T>* field, PupilScratch& scratch) const;

  // The two halves of build(), for splitting one frame across threads: the window's rows
  // [first, last), and the zeroing of the pupil columns outside the window.
  template <typename T>
  void build_rows(const PhasePolynomial& phase, std::complex<T>* field, PupilScratch& scratch,
                  int first, int last) const;

  template <typename T>
  void clear_outer_rows(std::complex<T>* field) const;

  [[nodiscard]] double aperture_sum() const noexcept { return aperture_sum_; }
  [[nodiscard]] int offset() const noexcept { return offset_; }

 private:
  int samples_;
  int padded_;
  int offset_;
  std::vector<double> x_;          // coordinate of each pupil column (and row: same grid)
  std::vector<double> shift_;      // shift modulation of each pupil column (and row)
  // Per pupil row, the aperture is one span of columns minus one obscured span: rounded
  // sqrt(x^2 + y^2) is monotone in |x|. Found once by testing every sample exactly.
  struct ApertureSpan {
    int lo = 0, hi = 0, obscured_lo = 0, obscured_hi = 0;
  };
  std::vector<ApertureSpan> spans_;
  double aperture_sum_ = 0.0;
};

}  // namespace psfsim::cpu

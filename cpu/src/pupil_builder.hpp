#pragma once
// Builds one frame's pupil rows straight into the FFT input: grid, aperture, phase and the
// shift modulation in one pass per row, with every inner loop a plain vectorizable sweep.
#include <complex>
#include <memory>
#include <vector>

#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/psf_plan.hpp"

namespace psfsim::cpu {

// Per-thread working rows, so that frames can be built concurrently.
struct PupilScratch {
  std::vector<double> plain;  // the frame's plain table without its constant term
  std::vector<double> phase;
  std::vector<double> rho_part;
  std::vector<double> rho;
  std::vector<double> row_coeffs;
  std::vector<double> row_rho_coeffs;
  std::vector<double> opd_shift;
};

class PupilBuilder {
 public:
  explicit PupilBuilder(const PsfPlan& plan);

  // Writes the N x N pupil window of the M x M array `field` and zeroes the rest of the
  // pupil columns (which the in-place column FFT fills); the columns outside the window are
  // never touched and must hold zeros.
  // `opd_scale` multiplies the frame's OPD map (the MFT's lambda_ref / lambda_k); the maps
  // are those of phase.batch_index.
  template <typename T>
  void build(const AberrationPolynomial& phase, std::complex<T>* field, PupilScratch& scratch,
             double opd_scale = 1.0) const;

  // The two halves of build(), for splitting one frame across threads: the window's rows
  // [first, last), and the zeroing of the pupil columns outside the window.
  template <typename T>
  void build_rows(const AberrationPolynomial& phase, std::complex<T>* field, PupilScratch& scratch,
                  int first, int last, double opd_scale = 1.0) const;

  template <typename T>
  void clear_outer_rows(std::complex<T>* field) const;

  [[nodiscard]] int offset() const noexcept { return offset_; }

 private:
  std::shared_ptr<const SampledPupil> facts_;  // coordinates, shifts, spans and maps
  int samples_;
  int padded_;
  int offset_;
};

}  // namespace psfsim::cpu

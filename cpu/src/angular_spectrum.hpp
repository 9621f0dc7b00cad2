#pragma once
// The angular-spectrum propagator between two parallel planes on the CPU (FFTW), sampling
// kept (docs/physical-optics.md, "The angular-spectrum propagator"): an N x N field of pitch
// dx, zero-padded to M x M, E' = IFFT(FFT(E) H), cropped back to the central N x N. For the
// planes of an optical train (a pupil-conjugate plane at a distance z).
#include <complex>
#include <vector>

#include "fftw_api.hpp"
#include "psfsim/angular_spectrum_grid.hpp"

namespace psfsim::cpu {

template <typename T>
class AngularSpectrum {
 public:
  // Throws InputError (check_angular_spectrum) for a grid or distance out of range. Plans one
  // M x M transform with `fftw_flags` (FFTW_ESTIMATE by default: no data is touched).
  explicit AngularSpectrum(const AngularSpectrumGrid& grid, unsigned fftw_flags = FFTW_ESTIMATE);

  // `in` and `out` are N x N row-major fields (row y, column x), and may be the same array.
  // z = 0 copies: the identity, evanescent components included.
  void propagate(const std::complex<T>* in, std::complex<T>* out);

  [[nodiscard]] const AngularSpectrumGrid& grid() const noexcept { return grid_; }

 private:
  AngularSpectrumGrid grid_;
  int offset_ = 0;  // the field's first row and column in the padded grid
  FftwArray<std::complex<T>> work_;
  // conj(H) / M^2: the inverse transform is conj(FFT(conj(.))) / M^2, so one forward plan
  // does both, the conjugations riding on the product with H and on the crop.
  std::vector<std::complex<T>> conjugate_transfer_;
  FftwPlan<T> plan_;
};

}  // namespace psfsim::cpu

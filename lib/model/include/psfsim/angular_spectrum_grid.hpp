#pragma once
// The angular-spectrum propagation of a sampled field between two parallel planes
// (docs/physical-optics.md, "The angular-spectrum propagator"): the grid, the range of
// distances it can propagate over, and its transfer function, shared by the CPU (FFTW) and
// the GPU (cuFFT) propagators so that both refuse and compute the same.
#include <complex>
#include <vector>

namespace psfsim {

// An N x N field of pitch dx, zero-padded to M x M, propagated by z at wavelength lambda.
struct AngularSpectrumGrid {
  int samples = 0;            // N
  int padded = 0;             // M >= N
  double pitch_m = 0.0;       // dx
  double wavelength_m = 0.0;  // lambda
  double distance_m = 0.0;    // z; negative propagates backwards
};

// The largest |z| the grid propagates over: min(M/2, M - N) dx / t_max, with t_max the
// largest lambda |f_x| / sqrt(1 - lambda^2 f^2) (the tangent of the steepest plane wave) over
// the grid's propagating frequencies. Beyond it the transfer function's phase steps more than
// pi between frequency samples (M/2), or the spread wraps around the padded grid into the
// crop (M - N). 0 when M = N.
[[nodiscard]] double angular_spectrum_reach(const AngularSpectrumGrid& grid);

// Throws InputError for a grid that is not one (N < 1, M < N, a pitch or wavelength that is
// not a positive finite length, a distance that is not finite) and for a distance beyond the
// reach, naming the distance and the bound.
void check_angular_spectrum(const AngularSpectrumGrid& grid);

// Frequency of padded index k of M (FFT order: 0, 1, ..., then the negative ones), per metre.
[[nodiscard]] double grid_frequency(int k, int padded, double pitch_m) noexcept;

// H[ky * M + kx] = exp(2 pi i z sqrt(1/lambda^2 - fx^2 - fy^2)) in FFT order, times `scale`;
// 0 where fx^2 + fy^2 >= 1/lambda^2 (evanescent). The phase is taken in turns as
// frac(z/lambda) - z f^2 / (1/lambda + sqrt(1/lambda^2 - f^2)), free of cancellation, and
// reduced to a fraction of a turn before the sine and cosine.
[[nodiscard]] std::vector<std::complex<double>> angular_spectrum_transfer(
    const AngularSpectrumGrid& grid, double scale = 1.0);

}  // namespace psfsim

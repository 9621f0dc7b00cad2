#pragma once
// Pupil sampling shared by host and device code so that every backend samples the same
// grid, aperture and shift modulation bit for bit (docs/spec.md §1).
//
// fftshift(FFT(ifftshift(P))) has the intensity of FFT(P * exp(2 pi i h n / M)) with
// h = floor(M/2) and n the padded index on each axis: the ifftshift only adds a phase and
// the fftshift becomes this modulation. Backends add `shift_waves` to the phase instead of
// running any shift pass. For even M it is the familiar (-1)^(x+y).
#include <cstdint>

#include "psfsim/enums.hpp"

#if defined(__CUDACC__)
#define PSFSIM_HD __host__ __device__
#else
#define PSFSIM_HD
#endif

namespace psfsim::pupil {

// x_i of docs/spec.md §1, rounded exactly as NumPy computes it; explicit roundings keep nvcc from
// contracting into an FMA that would move a sample across the aperture edge.
PSFSIM_HD inline double coordinate(int i, int n, Grid grid) {
#if defined(__CUDA_ARCH__)
  if (grid == Grid::centered) return __dmul_rn(__dsub_rn(static_cast<double>(i), n / 2.0), 2.0 / n);
  if (i == n - 1) return 1.0;
  return __dadd_rn(__dmul_rn(static_cast<double>(i), 2.0 / (n - 1)), -1.0);
#else
  if (grid == Grid::centered) return (static_cast<double>(i) - n / 2.0) * (2.0 / n);
  if (i == n - 1) return 1.0;  // numpy.linspace pins the endpoint
  return static_cast<double>(i) * (2.0 / (n - 1)) + -1.0;
#endif
}

// rho = sqrt(x^2 + y^2) as NumPy rounds it; rho == 1 is inside.
PSFSIM_HD inline double radius(double x, double y) {
#if defined(__CUDA_ARCH__)
  return __dsqrt_rn(__dadd_rn(__dmul_rn(x, x), __dmul_rn(y, y)));
#else
  return __builtin_sqrt(x * x + y * y);
#endif
}

PSFSIM_HD inline bool inside_aperture(double rho, double obscuration) {
  return rho <= 1.0 && rho >= obscuration;
}

// Offset of the N x N pupil in the M x M array.
PSFSIM_HD inline int pad_offset(int samples, int padded) { return (padded - samples) / 2; }

// Shift modulation of padded index `n`, in waves, reduced exactly to [0, 1).
PSFSIM_HD inline double shift_waves(int n, int padded) {
  const std::int64_t h = padded / 2;
  return static_cast<double>((h * n) % padded) / padded;
}

// First row/column of the crop window in the output frame (docs/spec.md §1 Crop).
PSFSIM_HD inline int crop_start(int padded, int frame) { return padded / 2 - frame / 2; }

}  // namespace psfsim::pupil

#pragma once
// The formulas of docs/spec.md §7's metrics that every backend shares, host and device alike, so
// that
// the CPU and the GPU define each metric in one place (docs/metrics.md derives them).
#include <cmath>

#include "psfsim/pupil_math.hpp"  // PSFSIM_HD

namespace psfsim::metric {

// The exact encircled energy (encircled_energy_weights.hpp) sums a frame's |E|^2 over a
// full-period grid of L points per axis, j = 0 on the axis, against tables even on each axis:
// grid index j reads the table at ee_fold(j), and the quadrant index f stands for f and, where
// it is another index, ee_mirror(f) (-1 where f is its own mirror: 0, and L/2 for even L).
PSFSIM_HD inline int ee_fold(int j, int period) { return j <= period - j ? j : period - j; }
PSFSIM_HD inline int ee_mirror(int f, int period) {
  const int g = period - f;
  return f == 0 || g == f ? -1 : g;
}

// The FWHM's radial profile about the maximum: a pixel `d` pixels away adds to bin round(d).
PSFSIM_HD inline int profile_bin(double d) { return static_cast<int>(d + 0.5); }

// The FWHM's tries, on every backend: the profile within fwhm_box(t) pixels of the maximum
// (rows and columns), which holds the half maximum of any PSF narrower than that; a wider
// one takes the next box, then the whole frame. Bins below a box's half size lie whole in it
// and are summed in the same order, so a try that finds the half maximum gives what the whole
// frame would, bit for bit.
inline constexpr int fwhm_attempts = 3;  // two boxes, then the whole frame
PSFSIM_HD constexpr int fwhm_box(int attempt) { return attempt == 0 ? 8 : 32; }

// Half the FWHM, in pixels: the profile's bins (value sum, distance sum, count), each bin
// taken at its mean distance and mean value, linearly interpolated where the profile first
// falls to half of `peak` (bin 0 is the maximum alone). NaN when bins [0, bins) never fall
// that far.
PSFSIM_HD inline double half_width(const double* value_sums, const double* distance_sums,
                                   const double* counts, int bins, double peak) {
  const double half = 0.5 * peak;
  double r0 = 0.0;
  double v0 = peak;
  for (int b = 1; b < bins; ++b) {
    if (counts[b] == 0.0) continue;
    const double r = distance_sums[b] / counts[b];
    const double v = value_sums[b] / counts[b];
    if (v <= half) return v0 == v ? r : r0 + (v0 - half) / (v0 - v) * (r - r0);
    r0 = r;
    v0 = v;
  }
  return NAN;
}

// Directions sampled over half a turn at radius `radius` (the other half is the same, the
// MTF of a real PSF being even): about two per pixel of arc.
PSFSIM_HD inline int mtf_directions(double radius) {
  const int n = static_cast<int>(std::ceil(2.0 * 3.14159265358979323846 * radius));
  return n < 8 ? 8 : n;
}

// Direction j of n over the half circle of radius `radius` OTF samples: the integer frequency
// (r, c) below and left of it, and its fractions past them.
struct MtfPoint {
  int r = 0;
  int c = 0;
  double fy = 0.0;
  double fx = 0.0;
};
PSFSIM_HD inline MtfPoint mtf_point(double radius, int j, int n) {
  const double angle = 3.14159265358979323846 * j / n;
  const double x = radius * std::cos(angle);
  const double y = radius * std::sin(angle);
  const double x0 = std::floor(x);
  const double y0 = std::floor(y);
  return {static_cast<int>(y0), static_cast<int>(x0), y - y0, x - x0};
}

// Bilinear interpolation at a point from |OTF| at its four neighbours: (r, c), (r, c + 1),
// (r + 1, c), (r + 1, c + 1).
PSFSIM_HD inline double mtf_blend(const MtfPoint& p, double m00, double m01, double m10,
                                  double m11) {
  return (1.0 - p.fy) * ((1.0 - p.fx) * m00 + p.fx * m01) +
         p.fy * ((1.0 - p.fx) * m10 + p.fx * m11);
}

// |OTF| at direction j of n over the half circle of radius `radius` OTF samples, bilinearly
// interpolated; `modulus(ky, kx)` returns |OTF| at any integer frequency (it wraps).
template <typename Modulus>
PSFSIM_HD double mtf_sample(const Modulus& modulus, double radius, int j, int n) {
  const MtfPoint p = mtf_point(radius, j, n);
  return mtf_blend(p, modulus(p.r, p.c), modulus(p.r, p.c + 1), modulus(p.r + 1, p.c),
                   modulus(p.r + 1, p.c + 1));
}

// The radially averaged MTF at `radius` OTF samples: the mean of mtf_sample over
// mtf_directions(radius) directions, over |OTF(0)|.
template <typename Modulus>
PSFSIM_HD double radial_mtf(const Modulus& modulus, double radius) {
  const double dc = modulus(0, 0);
  if (!(dc > 0.0)) return NAN;
  if (radius == 0.0) return 1.0;
  const int n = mtf_directions(radius);
  double sum = 0.0;
  for (int j = 0; j < n; ++j) sum += mtf_sample(modulus, radius, j, n);
  return sum / n / dc;
}

// A frequency index wrapped to [0, M).
PSFSIM_HD inline int wrapped(int k, int padded) {
  k %= padded;
  return k < 0 ? k + padded : k;
}

// |OTF| at (ky, kx) of an M x M transform stored row-major, both wrapped to [0, M).
PSFSIM_HD inline long long wrapped_index(int ky, int kx, int padded) {
  return static_cast<long long>(wrapped(ky, padded)) * padded + wrapped(kx, padded);
}

// The same for the transform of a real M x M plane stored as its non-redundant half,
// M x (M/2 + 1) row-major: a frequency in the other half is read at (-ky, -kx), whose value
// is the conjugate, of the same modulus.
PSFSIM_HD inline long long half_plane_index(int ky, int kx, int padded) {
  ky = wrapped(ky, padded);
  kx = wrapped(kx, padded);
  if (kx > padded / 2) {
    ky = wrapped(-ky, padded);
    kx = padded - kx;
  }
  return static_cast<long long>(ky) * (padded / 2 + 1) + kx;
}

// The wavefront's RMS over the aperture, weighted by A, piston removed, from the sums of A,
// A W and A W^2.
PSFSIM_HD inline double weighted_rms(double a, double aw, double aw2) {
  if (!(a > 0.0)) return NAN;
  const double mean = aw / a;
  const double variance = aw2 / a - mean * mean;
  return std::sqrt(variance > 0.0 ? variance : 0.0);
}

}  // namespace psfsim::metric

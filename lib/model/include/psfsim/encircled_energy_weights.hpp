#pragma once
// The exact encircled energy of the sampled pupil (docs/metrics.md, `ee`), worked out once per
// plan on the host in double, for every backend.
//
// The PSF of N x N pupil samples P_i at spacing dx (units of D) is the trigonometric
// polynomial I(t) = |sum_i P_i exp(-2 pi i t . x_i)|^2, periodic over 1/dx lambda/D: its OTF
// lives on the lattice m dx, |m_x|, |m_y| <= N - 1. The energy within radius r of the axis,
// over the period cell centred there, is sum_m OTF(m) K(m), with K the Fourier transform of
// that region at m dx. With any full-period grid of L >= 2N - 1 points per axis,
// t_j = j / (L dx), the same sum is sum_j I(t_j) W(j), W = (1/L^2) DFT(K): no alias of the
// OTF reaches another lattice point. The tables below hold L^2 W, about 1 inside the disk and
// 0 outside (the exact counterpart of a pixel's share of the disk), even on each axis, so a
// quadrant (L/2 + 1)^2 holds them. A backend sums a frame's |E|^2 over the grid, folded to the
// quadrant (metric::ee_fold), against each table; the radius is in units of the period,
// rho = r dx: the disk when rho <= 1/2 (K = rho J1(2 pi rho |m|) / |m|), the disk within the
// cell up to rho = 1/sqrt(2) (numerical quadrature), the whole cell beyond (EE = 1).
#include <cstddef>
#include <vector>

#include "psfsim/psf_plan.hpp"

namespace psfsim {

// The grid a backend transforms the pupil to when no focal plane of its own serves: the
// smallest even size >= 2N - 1 whose prime factors are 2, 3, 5 and 7 (fast for FFTW and cuFFT).
[[nodiscard]] int encircled_energy_period(int samples) noexcept;

// For an FFT's M x M focal plane with the axis at (M/2, M/2): the stride d at which every
// d-th row and column is a full-period grid of M/d >= 2N - 1 points, the largest that leaves
// M/d with prime factors 2, 3, 5 and 7 only; 0 when none (M < 2N - 1, or no such divisor).
[[nodiscard]] int encircled_energy_stride(int samples, int padded) noexcept;

// The pupil sample spacing in units of D: half the spacing of the coordinates (which run over
// [-1, 1]).
[[nodiscard]] double pupil_spacing(const SampledPupil& facts) noexcept;

// K at the lattice's quadrant, m_x, m_y in [0, N), row-major [m_y][m_x], for a radius of
// `rho` periods: the Fourier transform at m of the disk's part in the period cell, in units
// of the cell's area (so K(0) is the part's area over the cell's).
[[nodiscard]] std::vector<double> encircled_energy_kernel(int samples, double rho);

struct EncircledEnergyWeights {
  int samples = 0;   // N
  int period = 0;    // L: grid points per axis over one period
  int half = 0;      // L/2 + 1: the quadrant's edge
  int channels = 0;  // the plan's spectral channels (1 for the FFT)
  int radii = 0;
  // The sum of channel k's |E_k|^2 over the grid times its table, times scales[k], is that
  // channel's share of the frame's EE: w_k / (L^2 sum A^2 sum_k w_k), with w_k the channel's
  // spectral weight (SpectralChannel::weight / phase_scale^2).
  std::vector<double> scales;
  std::vector<double> tables;  // [channel][radius][f_y * half + f_x], L^2 W

  [[nodiscard]] std::size_t table_size() const noexcept {
    return static_cast<std::size_t>(half) * static_cast<std::size_t>(half);
  }
  [[nodiscard]] const double* table(int channel, int radius) const noexcept {
    return tables.data() + (static_cast<std::size_t>(channel) * radii + radius) * table_size();
  }
};

// The tables for `plan.metrics.ee_radii` (lambda_ref / D; channel k's radius in its own
// lambda_k / D is R phase_scale_k) on a grid of `period` points, with `threads` threads at
// most (0: every core). Throws InputError naming --metrics ee when they would pass
// max_encircled_energy_table_bytes.
[[nodiscard]] EncircledEnergyWeights encircled_energy_weights(const PsfPlan& plan, int period,
                                                              int threads = 0);

inline constexpr std::size_t max_encircled_energy_table_bytes = std::size_t{2} << 30;

}  // namespace psfsim

#pragma once
// The exact `ee` on the device (docs/metrics.md): a frame's |E|^2 over a full-period grid,
// folded to a quadrant and summed against the plan's weight tables
// (psfsim/encircled_energy_weights.hpp, uploaded by encircled_energy.cpp), one block per
// frame, in a fixed order. The grid is the FFT's own M x M plane (every d-th row and column
// about the axis), or the pupils padded to L x L here and transformed by the caller's cuFFT.
#include <cuda_runtime_api.h>

#include "device_complex.hpp"

namespace psfsim::cuda {

// The tables and where the values go: frame f's radius r at
// out[f * values_per_frame + column + r].
template <typename Real>
struct EeTables {
  const Real* tables = nullptr;    // [channel][radius][f_y * half + f_x]
  const double* scales = nullptr;  // one per channel
  int period = 0;                  // L
  int half = 0;                    // L/2 + 1
  int channels = 1;
  int radii = 0;
  int values_per_frame = 0;
  int column = 0;
};

// The FFT's M x M planes: frame f's at fields (or intensity, where the transform kept |X|^2
// alone) + f * frame_stride, row-major, the axis at (axis, axis).
template <typename Real>
struct EePlanes {
  const DeviceComplex<Real>* fields = nullptr;
  const Real* intensity = nullptr;
  long long frame_stride = 0;
  int padded = 0;  // M
  int stride = 1;  // d: grid index j is plane index (axis + d j) mod M
  int axis = 0;
};

// N x N pupil fields: channel c of frame f, sample (r, s) at
// pupils[c * channel_stride + f * frame_stride + (first_row + r) * row_stride + first_column + s].
// With shift_waves, each carries the FFT's shift modulation exp(2 pi i (shift_waves[r] +
// shift_waves[s])) (pupil_math.hpp), which is removed.
template <typename Real>
struct EePupils {
  const DeviceComplex<Real>* pupils = nullptr;
  long long frame_stride = 0;
  long long channel_stride = 0;
  long long row_stride = 0;
  int first_row = 0;
  int first_column = 0;
  int samples = 0;
  const double* shift_waves = nullptr;  // device, N values; null: no modulation
};

// Frames [0, frames) of `planes` into out (already at frame 0's row).
template <typename Real>
void launch_ee_from_planes(const EePlanes<Real>& planes, const EeTables<Real>& tables, int frames,
                           double* out, cudaStream_t stream);

// Frames [first, first + frames) of `pupils`, every channel, into `grid`'s L x L transforms
// (frame-major, channel-minor), zero past row and column N.
template <typename Real>
void launch_ee_pad(DeviceComplex<Real>* grid, const EePupils<Real>& pupils, int first, int frames,
                   int channels, int period, cudaStream_t stream);

// After the caller's forward transforms of `grid`: frames [0, frames) into out (at frame 0's
// row), the axis at grid index 0.
template <typename Real>
void launch_ee_from_grid(const DeviceComplex<Real>* grid, const EeTables<Real>& tables, int frames,
                         double* out, cudaStream_t stream);

}  // namespace psfsim::cuda

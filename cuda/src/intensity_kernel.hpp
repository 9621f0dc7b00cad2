#pragma once
// Kernel 2: |F|^2 of the crop window of every frame, normalized, packed into K x K frames.
#include <cuda_runtime_api.h>

#include <algorithm>

#include "device_complex.hpp"
#include "psfsim/enums.hpp"

namespace psfsim::cuda {

// How the K x K output of a frame is split among blocks: whole rows, about a thousand
// values per block, fewer when a small batch would otherwise leave the device short of
// blocks (the latency of a single small PSF depends on it).
struct IntensityTiling {
  static constexpr int target_blocks = 264;  // two per multiprocessor of an H200
  int rows_per_block = 1;
  int blocks_per_frame = 1;

  static IntensityTiling for_batch(int frame, int frames) {
    IntensityTiling t;
    t.rows_per_block = std::max(1, 1024 / frame);
    t.blocks_per_frame = (frame + t.rows_per_block - 1) / t.rows_per_block;
    while (static_cast<long long>(frames) * t.blocks_per_frame < target_blocks &&
           t.rows_per_block > 1) {
      t.rows_per_block = std::max(1, t.rows_per_block / 2);
      t.blocks_per_frame = (frame + t.rows_per_block - 1) / t.rows_per_block;
    }
    return t;
  }
  // Most blocks any call of up to `max_frames` frames launches (each halving above at most
  // doubles the blocks of a batch that had fewer than target_blocks).
  static long long max_blocks(int frame, int max_frames) {
    return static_cast<long long>(max_frames) * for_batch(frame, max_frames).blocks_per_frame +
           2LL * target_blocks + max_frames;
  }
};

struct IntensityShape {
  int padded = 0;      // M
  int frame = 0;       // K
  int crop_start = 0;  // first field row and column of the window
  int frames = 0;
  IntensityTiling tiling;
};

// Where the packed frames go. `destination` is device memory, or pinned host memory that the
// last kernel writes straight over the bus. Normalization::sum also needs device scratch:
// the unscaled frames, one partial sum per block and one scale per frame.
template <typename Real>
struct IntensityOutput {
  Real* destination = nullptr;     // frames * K * K
  Real* unscaled = nullptr;        // device, frames * K * K; may equal destination
  double* block_sums = nullptr;    // device, frames * tiling.blocks_per_frame
  double* frame_scales = nullptr;  // device, frames
  // Set to 1 by any value written to `destination` that is not finite (left as it was
  // otherwise); null: not checked.
  int* non_finite = nullptr;
};

// none / peak: one launch, every value times 1 or `peak_scale`. sum: three launches, each
// frame divided by its own total, the totals reduced in a fixed order so that repeated calls
// agree bit for bit.
template <typename Real>
void launch_intensity(const DeviceComplex<Real>* fields, const IntensityShape& shape,
                      Normalization normalization, double peak_scale,
                      const IntensityOutput<Real>& output, cudaStream_t stream);

}  // namespace psfsim::cuda

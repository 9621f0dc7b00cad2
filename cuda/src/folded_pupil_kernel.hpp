#pragma once
// The MFT's pupils folded by the grid's symmetry (psfsim/cuda/mft_fold.hpp): for each channel
// and frame, the sums and differences of each position's four mirrored samples, written as
// the real matrix the folded products take. The samples are those of
// launch_build_channel_pupils, bit for bit: the same phase, aperture, maps and phasors.
#include <cuda_runtime_api.h>

#include "psfsim/cuda/mft_fold.hpp"
#include "pupil_kernel.hpp"

namespace psfsim::cuda {

struct FoldedPupils {
  int samples = 0;  // N
  double obscuration = 0.0;
  const double* coordinate = nullptr;  // device: coordinate(i, N, grid) for i in [0, N)
  const int* positive = nullptr;       // device: FoldedAxis::positive, layout.sums of them
  const int* negative = nullptr;       // device: FoldedAxis::negative
  FoldedPupilLayout layout;
  const double* phase_scales = nullptr;  // device: one per channel
  int channels = 1;
  long long channel_stride = 0;  // reals from one channel's folded pupils to the next
  PupilMaps maps;                // without moments
};

// Frame f of channel k at out + k * channel_stride + f * layout.frame_reals(). Tables read
// from phase.coefficients (device or mapped pinned memory).
template <typename Real>
void launch_build_folded_pupils(Real* out, const FoldedPupils& shape, const PhaseTables& phase,
                                cudaStream_t stream);

// How the folded kernel splits a piece's folded quadrants among blocks.
[[nodiscard]] PupilTiling folded_pupil_tiling(const FoldedPupilLayout& layout, int frames);

}  // namespace psfsim::cuda

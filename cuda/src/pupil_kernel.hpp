#pragma once
// Kernel 1: the pupil of every frame of a batch, written straight into the FFT input, or
// into the MFT's dense per-channel pupils. One kernel body evaluates the phase for both.
#include <cuda_runtime_api.h>

#include "device_complex.hpp"
#include "pupil_rows.hpp"
#include "psfsim/pupil_math.hpp"  // PSFSIM_HD

namespace psfsim::cuda {

// Highest phase polynomial degree the kernel accepts: a frame's tables and each warp's
// collapsed row live in shared memory (32 KB at this degree). psfsim's terms stop at 24.
inline constexpr int max_phase_degree = 40;

// docs/spec.md §7's maps (SampledPupil), in device memory: N x N doubles per map, `*_stride`
// doubles from one frame's map to the next (0: every frame shares one); null pointers for none.
// With `amplitude`, A is the map (0 outside the aperture) instead of the annulus test.
struct PupilMaps {
  const double* amplitude = nullptr;
  const double* opd = nullptr;  // waves at the reference wavelength
  long long amplitude_stride = 0;
  long long opd_stride = 0;
  // Each launched frame's batch index (AberrationPolynomial::batch_index), read over the bus from
  // pinned host memory written before each launch; null: every frame is 0. A frame of -1
  // has no OPD (the aberration-free reference).
  const long long* batch_index = nullptr;
  // rms_wavefront (docs/spec.md §7): when set, each block writes its sums of A, A W and A W^2 (W in
  // waves at the reference wavelength) at moments[3 * block]; PupilTiling says which blocks
  // make a frame.
  double* moments = nullptr;
};

// The grid as tables made on the host with pupil_math.hpp: bit-identical to what the device
// would compute, and a division per sample cheaper.
struct PupilShape {
  int samples = 0;  // N
  int padded = 0;   // M
  int offset = 0;   // pad_offset(N, M)
  double obscuration = 0.0;
  const double* coordinate = nullptr;   // device: coordinate(i, N, grid) for i in [0, N)
  const double* shift_waves = nullptr;  // device: shift_waves(n, M) for n in [0, M)
  PupilMaps maps;
  PupilRows rows;  // the transform's input layout
};

// Per frame, (degree+1)^2 doubles of the plain table, then as many of the rho table when
// `with_rho`; every frame padded to the batch's common degree.
struct PhaseTables {
  const double* coefficients = nullptr;  // device memory (unused with InlineTables)
  int degree = 0;
  bool with_rho = false;
  int frames = 0;

  [[nodiscard]] PSFSIM_HD int doubles_per_frame() const noexcept {
    return (with_rho ? 2 : 1) * (degree + 1) * (degree + 1);
  }
};

// A small batch's tables carried in the launch parameters themselves: no copy node before
// the kernel, whose fixed cost is a large share of a single PSF's budget
// (bench/results/code-constants.md).
struct InlineTables {
  static constexpr int capacity = 256;  // doubles; the parameters stay under 4 KB
  double values[capacity];
};

// How the N x N window of each frame is split among blocks of 8 warps: each block takes a
// run of rows of one frame (a warp per row at a time) and, when there are too few rows to
// fill the device, one chunk of their columns.
struct PupilTiling {
  int rows_per_block = 8;
  int row_groups = 1;  // blocks per frame along the rows
  int column_chunks = 1;
  int chunk_width = 32;  // a multiple of 32

  static PupilTiling for_batch(int samples, int frames);
  // The MFT's pupils (launch_build_channel_pupils): never more than two rows per warp.
  static PupilTiling for_channels(int samples, int frames);
  [[nodiscard]] long long blocks(int frames) const noexcept {
    return static_cast<long long>(frames) * row_groups * column_chunks;
  }
  [[nodiscard]] int blocks_per_frame() const noexcept { return row_groups * column_chunks; }
  // Most blocks per frame any tiling of N samples makes (for sizing PupilMaps::moments).
  [[nodiscard]] static int max_blocks_per_frame(int samples) noexcept {
    return (samples + 7) / 8 * ((samples + 31) / 32);
  }
};

// Writes only the N x N window of each frame's rows.rows x M input: the zero padding around
// it is written once when the buffer is allocated and nothing else writes this buffer (the
// FFT runs out of place). `inline_tables` null: the tables are read from phase.coefficients.
template <typename Real>
void launch_build_pupil(DeviceComplex<Real>* pupil, const PupilShape& shape,
                        const PhaseTables& phase, const InlineTables* inline_tables,
                        cudaStream_t stream);

// The MFT's pupils (docs/spec.md §6): for channel k and frame f, the dense N x N field
// A exp(2 pi i phase_scale_k W) at pupils + k * channel_stride + f * N * N, row-major, with
// neither padding nor shift modulation. W is evaluated once per sample for all channels.
struct ChannelPupils {
  int samples = 0;  // N
  double obscuration = 0.0;
  const double* coordinate = nullptr;    // device: coordinate(i, N, grid) for i in [0, N)
  const double* phase_scales = nullptr;  // device: one per channel
  int channels = 1;
  long long channel_stride = 0;  // complex values from one channel's pupils to the next
  PupilMaps maps;
};

// Tables read from phase.coefficients (device or mapped pinned memory).
template <typename Real>
void launch_build_channel_pupils(DeviceComplex<Real>* pupils, const ChannelPupils& shape,
                                 const PhaseTables& phase, cudaStream_t stream);

// A graph recorded with inline tables keeps them in its kernel node: this finds the node
// (null if none) and replaces the tables for the next replay.
template <typename Real>
[[nodiscard]] cudaGraphNode_t find_inline_pupil_node(cudaGraph_t graph, const PhaseTables& phase);
template <typename Real>
void set_inline_tables(cudaGraphExec_t exec, cudaGraphNode_t node, DeviceComplex<Real>* pupil,
                       const PupilShape& shape, const PhaseTables& phase,
                       const InlineTables& tables);

}  // namespace psfsim::cuda

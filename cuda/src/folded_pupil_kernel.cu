#include "cuda_check.hpp"
#include "folded_pupil_kernel.hpp"
#include "pupil_phase.cuh"

namespace psfsim::cuda {
namespace {

using namespace pupil_device;

// A block copies its frame's tables to shared memory; each warp then takes folded rows in
// turn, collapsing the tables for its two rows c + m and c - m, and each lane takes folded
// columns: the four mirrored samples, then each channel's four phasors, combined and written
// by FoldedPupilLayout.
template <typename Real, int kStride>
__global__ void __launch_bounds__(block_threads)
    folded_pupil_kernel(Real* __restrict__ out, FoldedPupils shape, PhaseTables phase,
                        PupilTiling tiling) {
  extern __shared__ double shared[];
  const int n = shape.samples;
  const int h = shape.layout.sums;
  const auto [frame, first_row, chunk, warp, lane] = block_place(tiling);

  const int stride = kStride > 0 ? kStride : phase.degree + 1;
  const int per_frame = phase.doubles_per_frame();
  const int collapsed = (phase.with_rho ? 2 : 1) * stride;
  double* tables = shared;
  double* rows = shared + per_frame + warp * 2 * collapsed;  // at c + m, then at c - m

  load_tables(tables, DeviceTables{}.frame(phase, frame), per_frame);
  const auto [amplitude, opd] = frame_maps(shape.maps, frame);
  __syncthreads();

  Real* frame_out = out + frame * shape.layout.frame_reals();
  const int first_col = chunk * tiling.chunk_width;
  const int end_col = min(h, first_col + tiling.chunk_width);
  const int end_row = min(h, first_row + tiling.rows_per_block);
  for (int i = first_row + warp; i < end_row; i += warps_per_block) {
    const int row[2] = {shape.positive[i], shape.negative[i]};
    for (int half = 0; half < 2; ++half)
      if (row[half] >= 0)
        collapse_row(tables, stride, collapsed, shape.coordinate[row[half]],
                     rows + half * collapsed, lane);
    __syncwarp();

    for (int j = first_col + lane; j < end_col; j += warp_lanes) {
      const int col[2] = {shape.positive[j], shape.negative[j]};
      double w[4], o[4], a[4];  // sample 2 * (y's half) + (x's half)
      for (int hy = 0; hy < 2; ++hy) {
        RowPolynomial<kStride> plain;
        RowPolynomial<kStride> with_rho;
        if constexpr (kStride == 0) plain.stride = with_rho.stride = stride;
        plain.load(rows + hy * collapsed);
        if (phase.with_rho) with_rho.load(rows + hy * collapsed + stride);
        for (int hx = 0; hx < 2; ++hx) {
          const int s = 2 * hy + hx;
          a[s] = 0.0;
          w[s] = 0.0;
          o[s] = 0.0;
          if (row[hy] < 0 || col[hx] < 0) continue;
          const long long at = static_cast<long long>(row[hy]) * n + col[hx];
          // The pair's samples lie at c + m and c - m: each has a radius of its own where
          // the grid's centre c is not 0.
          const double xs = shape.coordinate[col[hx]];
          const double rho = pupil::radius(xs, shape.coordinate[row[hy]]);
          const double amp = amplitude != nullptr ? amplitude[at] : 1.0;
          if (amplitude != nullptr ? amp == 0.0 : !pupil::inside_aperture(rho, shape.obscuration))
            continue;
          double ws = plain(xs);
          if (phase.with_rho) ws += rho * with_rho(xs);
          w[s] = ws;
          o[s] = opd != nullptr ? opd[at] : 0.0;
          a[s] = amp;
        }
      }
      for (int k = 0; k < shape.channels; ++k) {
        DeviceComplex<Real> v[4];
        for (int s = 0; s < 4; ++s)
          v[s] = a[s] != 0.0 ? channel_sample<Real>(shape.phase_scales[k], w[s], o[s], a[s])
                             : DeviceComplex<Real>{Real(0), Real(0)};
        shape.layout.write(frame_out + k * shape.channel_stride, i, j, v[0], v[1], v[2], v[3]);
      }
    }
    __syncwarp();  // the rows are read until here
  }
}

template <typename Real>
struct FoldedKernels {
  template <int kStride>
  static const void* get() {
    return reinterpret_cast<const void*>(&folded_pupil_kernel<Real, kStride>);
  }
};

}  // namespace

PupilTiling folded_pupil_tiling(const FoldedPupilLayout& layout, int frames) {
  return PupilTiling::for_channels(layout.sums, frames);
}

template <typename Real>
void launch_build_folded_pupils(Real* out, const FoldedPupils& shape, const PhaseTables& phase,
                                cudaStream_t stream) {
  PupilTiling tiling = folded_pupil_tiling(shape.layout, phase.frames);
  const int collapsed = (phase.with_rho ? 2 : 1) * (phase.degree + 1);
  const std::size_t shared =
      sizeof(double) * (phase.doubles_per_frame() + 2 * warps_per_block * collapsed);
  void* args[] = {&out, const_cast<FoldedPupils*>(&shape), const_cast<PhaseTables*>(&phase),
                  &tiling};
  PSFSIM_CUDA_CHECK(cudaLaunchKernel(kernel_for_stride<FoldedKernels<Real>>(phase.degree + 1),
                                     dim3(static_cast<unsigned>(tiling.blocks(phase.frames))),
                                     dim3(block_threads), args, shared, stream));
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template void launch_build_folded_pupils<float>(float*, const FoldedPupils&, const PhaseTables&,
                                                cudaStream_t);
template void launch_build_folded_pupils<double>(double*, const FoldedPupils&, const PhaseTables&,
                                                 cudaStream_t);

}  // namespace psfsim::cuda

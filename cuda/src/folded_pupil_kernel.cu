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
// kOneChannel: a single wavelength, whose samples need not outlive their phasors. Its kernels
// are held to three blocks a multiprocessor: the register cap spills a few bytes at the larger
// strides, and still measured faster than two blocks unspilled
// (bench/results/2026-12-05-folded-mft.md).
template <typename Real, int kStride, bool kOneChannel>
__global__ void __launch_bounds__(block_threads, kOneChannel ? 3 : 1)
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
  // Named, not bound: C++17 lambdas (sample, below) cannot capture structured bindings.
  const FrameMaps maps = frame_maps(shape.maps, frame);
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
      RowPolynomial<kStride> plain;
      RowPolynomial<kStride> with_rho;
      if constexpr (kStride == 0) plain.stride = with_rho.stride = stride;
      const auto load_half = [&](int hy) {
        plain.load(rows + hy * collapsed);
        if (phase.with_rho) with_rho.load(rows + hy * collapsed + stride);
      };
      // Sample (row[hy], col[hx]): false where the grid has none or the pupil is dark there,
      // else its phase w, map OPD o and amplitude a.
      const auto sample = [&](int hy, int hx, double& w, double& o, double& a) {
        if (row[hy] < 0 || col[hx] < 0) return false;
        const long long at = static_cast<long long>(row[hy]) * n + col[hx];
        // The pair's samples lie at c + m and c - m: each has a radius of its own where the
        // grid's centre c is not 0.
        const double xs = shape.coordinate[col[hx]];
        const double rho = pupil::radius(xs, shape.coordinate[row[hy]]);
        a = maps.amplitude != nullptr ? maps.amplitude[at] : 1.0;
        if (maps.amplitude != nullptr ? a == 0.0 : !pupil::inside_aperture(rho, shape.obscuration))
          return false;
        w = plain(xs);
        if (phase.with_rho) w += rho * with_rho(xs);
        o = maps.opd != nullptr ? maps.opd[at] : 0.0;
        return true;
      };
      const DeviceComplex<Real> dark{Real(0), Real(0)};
      if constexpr (kOneChannel) {
        // Each sample straight to its phasor: four complex values live, not twelve doubles.
        const double scale = shape.phase_scales[0];
        DeviceComplex<Real> v[4];
        for (int hy = 0; hy < 2; ++hy) {
          load_half(hy);
          for (int hx = 0; hx < 2; ++hx) {
            double w, o, a;
            v[2 * hy + hx] = sample(hy, hx, w, o, a) ? channel_sample<Real>(scale, w, o, a) : dark;
          }
        }
        shape.layout.write(frame_out, i, j, v[0], v[1], v[2], v[3]);
      } else {
        double w[4], o[4], a[4];  // sample 2 * (y's half) + (x's half)
        for (int hy = 0; hy < 2; ++hy) {
          load_half(hy);
          for (int hx = 0; hx < 2; ++hx) {
            const int s = 2 * hy + hx;
            if (!sample(hy, hx, w[s], o[s], a[s])) a[s] = 0.0;
          }
        }
        for (int k = 0; k < shape.channels; ++k) {
          DeviceComplex<Real> v[4];
          for (int s = 0; s < 4; ++s)
            v[s] =
                a[s] != 0.0 ? channel_sample<Real>(shape.phase_scales[k], w[s], o[s], a[s]) : dark;
          shape.layout.write(frame_out + k * shape.channel_stride, i, j, v[0], v[1], v[2], v[3]);
        }
      }
    }
    __syncwarp();  // the rows are read until here
  }
}

template <typename Real, bool kOneChannel>
struct FoldedKernels {
  template <int kStride>
  static const void* get() {
    return reinterpret_cast<const void*>(&folded_pupil_kernel<Real, kStride, kOneChannel>);
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
  const int stride = phase.degree + 1;
  const void* kernel = shape.channels == 1 ? kernel_for_stride<FoldedKernels<Real, true>>(stride)
                                           : kernel_for_stride<FoldedKernels<Real, false>>(stride);
  PSFSIM_CUDA_CHECK(cudaLaunchKernel(kernel,
                                     dim3(static_cast<unsigned>(tiling.blocks(phase.frames))),
                                     dim3(block_threads), args, shared, stream));
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template void launch_build_folded_pupils<float>(float*, const FoldedPupils&, const PhaseTables&,
                                                cudaStream_t);
template void launch_build_folded_pupils<double>(double*, const FoldedPupils&, const PhaseTables&,
                                                 cudaStream_t);

}  // namespace psfsim::cuda

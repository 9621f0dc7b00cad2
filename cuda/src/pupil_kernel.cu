#include <algorithm>
#include <vector>

#include "cuda_check.hpp"
#include "pupil_kernel.hpp"
#include "pupil_phase.cuh"

namespace psfsim::cuda {
namespace {

using namespace pupil_device;

// Two blocks per multiprocessor of an H200: measured best for one large frame and for
// 1024 small ones alike.
constexpr int target_blocks = 264;

struct ParameterTables {
  InlineTables tables;
  __device__ const double* frame(const PhaseTables& p, int f) const {
    return tables.values + f * p.doubles_per_frame();
  }
};

// Where a row's samples go. The FFT's window of a padded field: the shift modulation
// (pupil_math.hpp) joins the phase.
template <typename Real>
struct PaddedRow {
  DeviceComplex<Real>* out;
  double row_shift;
  const double* col_shift;
  // w: the polynomial's phase; opd: the map's, whose whole waves are dropped exactly first
  // (one wavelength: the reference's), so that a map of 1e9 waves adds no rounding.
  __device__ void inside(int c, double w, double opd, double a) const {
    DeviceComplex<Real> value;
    unit_phasor(w + (opd - rint(opd)) + row_shift + col_shift[c], value);
    value.x *= static_cast<Real>(a);  // exact for the annulus's a = 1
    value.y *= static_cast<Real>(a);
    out[c] = value;
  }
  __device__ void outside(int c) const { out[c] = DeviceComplex<Real>{Real(0), Real(0)}; }
};

template <typename Real>
__device__ PaddedRow<Real> row_of(const PupilShape& s, DeviceComplex<Real>* pupil, int frame,
                                  int r) {
  const long long padded = s.padded;
  return {
      pupil + (static_cast<long long>(frame) * s.rows.rows + s.rows.origin + r) * padded + s.offset,
      s.shift_waves[s.offset + r], s.shift_waves + s.offset};
}

// The MFT's dense pupils: one phasor per channel from the one phase W.
template <typename Real>
struct ChannelRow {
  DeviceComplex<Real>* out;
  long long channel_stride;
  int channels;
  const double* phase_scales;
  // w and opd in waves at the reference: each channel scales them, and drops the map's
  // scaled whole waves exactly before they meet w, as PaddedRow does.
  __device__ void inside(int c, double w, double opd, double a) const {
    for (int k = 0; k < channels; ++k)
      out[k * channel_stride + c] = channel_sample<Real>(phase_scales[k], w, opd, a);
  }
  __device__ void outside(int c) const {
    for (int k = 0; k < channels; ++k)
      out[k * channel_stride + c] = DeviceComplex<Real>{Real(0), Real(0)};
  }
};

template <typename Real>
__device__ ChannelRow<Real> row_of(const ChannelPupils& s, DeviceComplex<Real>* pupil, int frame,
                                   int r) {
  const long long n = s.samples;
  return {pupil + (frame * n + r) * n, s.channel_stride, s.channels, s.phase_scales};
}

// The block's three sums, reduced in a fixed order (reruns agree), written by thread 0.
__device__ void block_moments(double a, double aw, double aw2, double* out) {
  __shared__ double partial[3][warps_per_block];
  for (int offset = 16; offset > 0; offset /= 2) {
    a += __shfl_down_sync(0xffffffffu, a, offset);
    aw += __shfl_down_sync(0xffffffffu, aw, offset);
    aw2 += __shfl_down_sync(0xffffffffu, aw2, offset);
  }
  const int warp = threadIdx.x / warp_lanes;
  if (threadIdx.x % warp_lanes == 0) {
    partial[0][warp] = a;
    partial[1][warp] = aw;
    partial[2][warp] = aw2;
  }
  __syncthreads();
  if (threadIdx.x < 3) {
    double total = 0.0;
    for (int w = 0; w < warps_per_block; ++w) total += partial[threadIdx.x][w];
    out[threadIdx.x] = total;
  }
}

// A block copies its frame's tables to shared memory, then each warp takes rows in turn:
// the lanes collapse the tables for the row's y to polynomials in x (row[a] = sum_b
// t[a][b] y^b), then each lane builds samples of the row, one Horner pass in x per table.
// `Layout` (PupilShape or ChannelPupils) says where the samples go.
template <typename Real, int kStride, typename Source, typename Layout>
__global__ void __launch_bounds__(block_threads)
    build_pupil_kernel(DeviceComplex<Real>* __restrict__ pupil, Layout shape, PhaseTables phase,
                       PupilTiling tiling, Source source) {
  extern __shared__ double shared[];
  const int n = shape.samples;
  const auto [frame, first_row, chunk, warp, lane] = block_place(tiling);

  const int stride = kStride > 0 ? kStride : phase.degree + 1;
  const int per_frame = phase.doubles_per_frame();
  const int collapsed = (phase.with_rho ? 2 : 1) * stride;
  double* tables = shared;
  double* row = shared + per_frame + warp * collapsed;

  load_tables(tables, source.frame(phase, frame), per_frame);
  const PupilMaps& maps = shape.maps;
  const auto [amplitude, opd] = frame_maps(maps, frame);
  __syncthreads();

  double sum_a = 0.0, sum_aw = 0.0, sum_aw2 = 0.0;  // for maps.moments
  const int first_col = chunk * tiling.chunk_width;
  const int end_col = min(n, first_col + tiling.chunk_width);
  const int end_row = min(n, first_row + tiling.rows_per_block);
  for (int r = first_row + warp; r < end_row; r += warps_per_block) {
    const double y = shape.coordinate[r];
    collapse_row(tables, stride, collapsed, y, row, lane);
    __syncwarp();
    RowPolynomial<kStride> plain;
    RowPolynomial<kStride> with_rho;
    if constexpr (kStride == 0) plain.stride = with_rho.stride = stride;
    plain.load(row);
    if (phase.with_rho) with_rho.load(row + stride);
    if constexpr (kStride > 0) __syncwarp();  // in registers now: the buffer is free again

    const auto out = row_of<Real>(shape, pupil, frame, r);
    const long long row_start = static_cast<long long>(r) * n;
    for (int c = first_col + lane; c < end_col; c += warp_lanes) {
      const double x = shape.coordinate[c];
      const double rho = pupil::radius(x, y);
      const double a = amplitude != nullptr ? amplitude[row_start + c] : 1.0;
      if (amplitude != nullptr ? a != 0.0 : pupil::inside_aperture(rho, shape.obscuration)) {
        double w = plain(x);
        if (phase.with_rho) w += rho * with_rho(x);
        const double o = opd != nullptr ? opd[row_start + c] : 0.0;
        out.inside(c, w, o, a);
        if (maps.moments != nullptr) {
          const double total = w + o;
          sum_a += a;
          sum_aw += a * total;
          sum_aw2 += a * total * total;
        }
      } else {
        out.outside(c);
      }
    }
    if constexpr (kStride == 0) __syncwarp();  // read from the buffer until here
  }
  if (maps.moments != nullptr)
    block_moments(sum_a, sum_aw, sum_aw2, maps.moments + 3LL * blockIdx.x);
}

std::size_t shared_bytes(const PhaseTables& phase) {
  const int collapsed = (phase.with_rho ? 2 : 1) * (phase.degree + 1);
  return sizeof(double) * (phase.doubles_per_frame() + warps_per_block * collapsed);
}

template <typename Real, typename Source, typename Layout>
struct PupilKernels {
  template <int kStride>
  static const void* get() {
    return reinterpret_cast<const void*>(&build_pupil_kernel<Real, kStride, Source, Layout>);
  }
};

// The kernel for a stride: unrolled up to max_unrolled_stride, generic beyond.
template <typename Real, typename Source, typename Layout = PupilShape>
const void* kernel_for(int stride) {
  return kernel_for_stride<PupilKernels<Real, Source, Layout>>(stride);
}

template <typename Real, typename Source, typename Layout>
void launch(DeviceComplex<Real>* pupil, const Layout& shape, const PhaseTables& phase,
            const Source& source, PupilTiling tiling, cudaStream_t stream) {
  void* args[] = {&pupil, const_cast<Layout*>(&shape), const_cast<PhaseTables*>(&phase), &tiling,
                  const_cast<Source*>(&source)};
  PSFSIM_CUDA_CHECK(cudaLaunchKernel(kernel_for<Real, Source, Layout>(phase.degree + 1),
                                     dim3(static_cast<unsigned>(tiling.blocks(phase.frames))),
                                     dim3(block_threads), args, shared_bytes(phase), stream));
  PSFSIM_CUDA_CHECK_LAUNCH();
}

}  // namespace

PupilTiling PupilTiling::for_batch(int samples, int frames) {
  PupilTiling t;
  // Rows: as many per block as keeps about target_blocks blocks, at least one per warp.
  const int warp_rows = (samples + warps_per_block - 1) / warps_per_block;
  const long long min_blocks = static_cast<long long>(frames) * warp_rows;
  const long long rows_per_warp = std::clamp<long long>(min_blocks / target_blocks, 1, warp_rows);
  t.rows_per_block = static_cast<int>(rows_per_warp) * warps_per_block;
  t.row_groups = (samples + t.rows_per_block - 1) / t.rows_per_block;
  // Columns: split only when the rows alone leave the device short of blocks.
  const long long row_blocks = static_cast<long long>(frames) * t.row_groups;
  const long long wanted = (target_blocks + row_blocks - 1) / row_blocks;
  const int most = (samples + warp_lanes - 1) / warp_lanes;
  const int chunks = static_cast<int>(std::clamp<long long>(wanted, 1, most));
  t.chunk_width = ((samples + chunks - 1) / chunks + warp_lanes - 1) / warp_lanes * warp_lanes;
  t.column_chunks = (samples + t.chunk_width - 1) / t.chunk_width;
  return t;
}

PupilTiling PupilTiling::for_channels(int samples, int frames) {
  PupilTiling t = for_batch(samples, frames);
  // for_batch gives a large batch one block per frame, so the MFT's pieces of about a
  // thousand frames launched a wave and a part, the part's tail a large share of the kernel
  // (Nsight Compute; bench/results/code-constants.md). At most two rows per warp make many
  // short blocks.
  const int most_rows = 2 * warps_per_block;
  if (t.rows_per_block > most_rows) {
    t.rows_per_block = most_rows;
    t.row_groups = (samples + most_rows - 1) / most_rows;
  }
  return t;
}

template <typename Real>
void launch_build_pupil(DeviceComplex<Real>* pupil, const PupilShape& shape,
                        const PhaseTables& phase, const InlineTables* inline_tables,
                        cudaStream_t stream) {
  const PupilTiling tiling = PupilTiling::for_batch(shape.samples, phase.frames);
  if (inline_tables != nullptr)
    launch<Real>(pupil, shape, phase, ParameterTables{*inline_tables}, tiling, stream);
  else launch<Real>(pupil, shape, phase, DeviceTables{}, tiling, stream);
}

template <typename Real>
void launch_build_channel_pupils(DeviceComplex<Real>* pupils, const ChannelPupils& shape,
                                 const PhaseTables& phase, cudaStream_t stream) {
  launch<Real>(pupils, shape, phase, DeviceTables{},
               PupilTiling::for_channels(shape.samples, phase.frames), stream);
}

template <typename Real>
cudaGraphNode_t find_inline_pupil_node(cudaGraph_t graph, const PhaseTables& phase) {
  const void* wanted = kernel_for<Real, ParameterTables>(phase.degree + 1);
  std::size_t count = 0;
  PSFSIM_CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  PSFSIM_CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &count));
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    PSFSIM_CUDA_CHECK(cudaGraphNodeGetType(node, &type));
    if (type != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams params{};
    PSFSIM_CUDA_CHECK(cudaGraphKernelNodeGetParams(node, &params));
    if (params.func == wanted) return node;
  }
  return nullptr;
}

template <typename Real>
void set_inline_tables(cudaGraphExec_t exec, cudaGraphNode_t node, DeviceComplex<Real>* pupil,
                       const PupilShape& shape, const PhaseTables& phase,
                       const InlineTables& tables) {
  PupilTiling tiling = PupilTiling::for_batch(shape.samples, phase.frames);
  ParameterTables source{tables};
  void* args[] = {&pupil, const_cast<PupilShape*>(&shape), const_cast<PhaseTables*>(&phase),
                  &tiling, &source};
  cudaKernelNodeParams params{};
  params.func = const_cast<void*>(kernel_for<Real, ParameterTables>(phase.degree + 1));
  params.gridDim = dim3(static_cast<unsigned>(tiling.blocks(phase.frames)));
  params.blockDim = dim3(block_threads);
  params.sharedMemBytes = static_cast<unsigned>(shared_bytes(phase));
  params.kernelParams = args;
  PSFSIM_CUDA_CHECK(cudaGraphExecKernelNodeSetParams(exec, node, &params));
}

#define PSFSIM_INSTANTIATE(Real)                                                                 \
  template void launch_build_pupil<Real>(DeviceComplex<Real>*, const PupilShape&,                \
                                         const PhaseTables&, const InlineTables*, cudaStream_t); \
  template void launch_build_channel_pupils<Real>(DeviceComplex<Real>*, const ChannelPupils&,    \
                                                  const PhaseTables&, cudaStream_t);             \
  template cudaGraphNode_t find_inline_pupil_node<Real>(cudaGraph_t, const PhaseTables&);        \
  template void set_inline_tables<Real>(cudaGraphExec_t, cudaGraphNode_t, DeviceComplex<Real>*,  \
                                        const PupilShape&, const PhaseTables&,                   \
                                        const InlineTables&);
PSFSIM_INSTANTIATE(float)
PSFSIM_INSTANTIATE(double)
#undef PSFSIM_INSTANTIATE

}  // namespace psfsim::cuda

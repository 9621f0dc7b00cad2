#pragma once
// What the pupil kernels share (pupil_kernel.cu, folded_pupil_kernel.cu): the block's shape,
// the phasors, Horner's rule on the tables, and the choice of a kernel unrolled for the
// tables' stride.
#include "device_complex.hpp"
#include "pupil_kernel.hpp"

namespace psfsim::cuda::pupil_device {

constexpr int warp_lanes = 32;
constexpr int warps_per_block = 8;
constexpr int block_threads = warp_lanes * warps_per_block;
// Strides (degree + 1) up to this get a kernel with the row polynomials in registers.
constexpr int max_unrolled_stride = 9;

__device__ inline void unit_phasor(double turns, float2& out) {
  // Reduce to a fraction of a wave in double so that float only sees |angle| <= pi.
  const double fraction = turns - rint(turns);
  sincospif(static_cast<float>(2.0 * fraction), &out.y, &out.x);
}

__device__ inline void unit_phasor(double turns, double2& out) {
  sincospi(2.0 * (turns - rint(turns)), &out.y, &out.x);
}

__device__ inline double horner(const double* coeffs, int stride, double t) {
  double v = coeffs[stride - 1];
  for (int k = stride - 2; k >= 0; --k) v = fma(v, t, coeffs[k]);
  return v;
}

// Horner's rule on a row polynomial: in registers for a compile-time stride, else from
// shared memory.
template <int kStride>
struct RowPolynomial {
  double c[kStride];
  __device__ void load(const double* from) {
#pragma unroll
    for (int k = 0; k < kStride; ++k) c[k] = from[k];
  }
  __device__ double operator()(double t) const {
    double v = c[kStride - 1];
#pragma unroll
    for (int k = kStride - 2; k >= 0; --k) v = fma(v, t, c[k]);
    return v;
  }
};
template <>
struct RowPolynomial<0> {
  const double* c;
  int stride;
  __device__ void load(const double* from) { c = from; }
  __device__ double operator()(double t) const { return horner(c, stride, t); }
};

struct DeviceTables {
  __device__ const double* frame(const PhaseTables& p, int f) const {
    return p.coefficients + static_cast<long long>(f) * p.doubles_per_frame();
  }
};

// The MFT's phasors. Single precision takes the hardware sine and cosine of the exactly
// reduced turn, a few instructions against sincospif's tens: their absolute error (below
// 4e-7 on [-pi, pi]) is of the order of what the float products summing N^2 samples add
// anyway. Double keeps sincospi.
__device__ inline void channel_phasor(double turns, float2& out) {
  const double two_pi = 6.283185307179586476925;
  __sincosf(static_cast<float>(two_pi * (turns - rint(turns))), &out.y, &out.x);
}

__device__ inline void channel_phasor(double turns, double2& out) { unit_phasor(turns, out); }

// Channel `scale`'s sample from the phase w and the map's opd (waves at the reference) and
// amplitude a: the map's scaled whole waves are dropped exactly before they meet w, so that a
// map of 1e9 waves adds no rounding.
template <typename Real>
__device__ inline DeviceComplex<Real> channel_sample(double scale, double w, double opd, double a) {
  const double waves = scale * opd;
  DeviceComplex<Real> value;
  channel_phasor(scale * w + (waves - rint(waves)), value);
  value.x *= static_cast<Real>(a);
  value.y *= static_cast<Real>(a);
  return value;
}

// A block's copy of frame f's tables into shared memory. The plain table's constant term is
// piston, which changes no intensity at any wavelength: without it 1e6 waves of Z1, 1e9 at a
// band's shortest wavelength, add no rounding. The moments need no piston either.
__device__ inline void load_tables(double* tables, const double* from, int per_frame) {
  for (int i = threadIdx.x; i < per_frame; i += block_threads) tables[i] = i == 0 ? 0.0 : from[i];
}

// The tables collapsed for row coordinate y into polynomials in x (row[a] = sum_b t[a][b] y^b),
// the warp's lanes sharing the work.
__device__ inline void collapse_row(const double* tables, int stride, int collapsed, double y,
                                    double* row, int lane) {
  for (int k = lane; k < collapsed; k += warp_lanes) {
    const int table = k / stride;
    const int a = k - table * stride;
    row[k] = horner(tables + (table * stride + a) * stride, stride, y);
  }
}

// Where a block of a PupilTiling works: its frame, its first row, its column chunk, and the
// thread's warp and lane.
struct BlockPlace {
  int frame, first_row, chunk, warp, lane;
};
__device__ inline BlockPlace block_place(const PupilTiling& tiling) {
  const int chunk = blockIdx.x % tiling.column_chunks;
  const int rest = blockIdx.x / tiling.column_chunks;
  const int frame = rest / tiling.row_groups;
  return {frame, (rest - frame * tiling.row_groups) * tiling.rows_per_block, chunk,
          static_cast<int>(threadIdx.x) / warp_lanes, static_cast<int>(threadIdx.x) % warp_lanes};
}

// A frame's maps: its batch index picks them where there is one per frame; a frame of index
// -1 (the aberration-free reference) has the first amplitude map and no OPD.
struct FrameMaps {
  const double* amplitude;
  const double* opd;
};
__device__ inline FrameMaps frame_maps(const PupilMaps& maps, int frame) {
  const long long index = maps.batch_index != nullptr ? maps.batch_index[frame] : 0;
  return {maps.amplitude != nullptr
              ? maps.amplitude + (index < 0 ? 0 : index) * maps.amplitude_stride
              : nullptr,
          maps.opd != nullptr && index >= 0 ? maps.opd + index * maps.opd_stride : nullptr};
}

// Family::get<S>() is a kernel with the row polynomials of stride S in registers (S = 0: any
// stride, from shared memory); this picks it for `stride`.
template <typename Family, int kStride = 1>
const void* kernel_for_stride(int stride) {
  if constexpr (kStride > max_unrolled_stride) {
    return Family::template get<0>();
  } else {
    if (stride == kStride) return Family::template get<kStride>();
    return kernel_for_stride<Family, kStride + 1>(stride);
  }
}

}  // namespace psfsim::cuda::pupil_device

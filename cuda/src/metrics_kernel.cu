#include <algorithm>
#include <cmath>

#include "block_sum.cuh"
#include "cuda_check.hpp"
#include "metrics_kernel.hpp"
#include "psfsim/metric_math.hpp"

namespace psfsim::cuda {
namespace {

constexpr int block_threads = 256;
constexpr int warps = block_threads / 32;
constexpr int rows_in_flight = 8;


template <typename Real>
struct FrameReader {
  FieldWindow<Real> w;
  long long base;
  __device__ double operator()(int r, int c) const {
    const long long at = base + (w.first + r) * w.row_stride + w.first + c;
    if (w.intensity != nullptr) return static_cast<double>(w.intensity[at]);
    if (w.weights == nullptr) {  // the FFT's one field
      const DeviceComplex<Real> z = w.fields[at];
      return static_cast<double>(z.x * z.x + z.y * z.y);
    }
    double v = 0.0;
    for (int k = 0; k < w.channels; ++k) {
      const DeviceComplex<Real> z = w.fields[k * w.channel_stride + at];
      const double weight = w.weights != nullptr ? w.weights[k] : 1.0;
      v += weight * (static_cast<double>(z.x) * z.x + static_cast<double>(z.y) * z.y);
    }
    return v;
  }
};

template <typename Real>
__global__ void __launch_bounds__(block_threads)
    frame_metrics_kernel(FieldWindow<Real> window, DeviceMetrics m, WavefrontMoments moments,
                         double* __restrict__ out) {
  extern __shared__ double profile[];  // 3 * fwhm_bins: value sums, distance sums, counts
  __shared__ double scratch[warps];
  __shared__ double peak_value[warps];
  __shared__ int peak_index[warps];
  const int f = blockIdx.x;
  const FrameReader<Real> read{window, static_cast<long long>(f) * window.frame_stride};
  const int k = m.edge;
  double* row = out + static_cast<long long>(f) * m.values_per_frame;

  // One pass over the frame, each thread down its columns with several rows' loads in
  // flight (one at a time left the memory system two-fifths busy): totals, first moments
  // about pixel 0 (shifted to the axis after the reduction) and the maximum.
  double total = 0.0, sx = 0.0, sy = 0.0, peak = -1.0;
  int at = 0;
  const auto take = [&](double v, int r, int c) {
    sy += v * r;
    // The first of equal maxima in row-major order, as on the CPU.
    if (v > peak || (v == peak && r * k + c < at)) {
      peak = v;
      at = r * k + c;
    }
  };
  for (int c = threadIdx.x; c < k; c += block_threads) {
    double column = 0.0;
    int r = 0;
    for (; r + rows_in_flight <= k; r += rows_in_flight) {
      double v[rows_in_flight];
#pragma unroll
      for (int j = 0; j < rows_in_flight; ++j) v[j] = read(r + j, c);
#pragma unroll
      for (int j = 0; j < rows_in_flight; ++j) {
        column += v[j];
        take(v[j], r + j, c);
      }
    }
    for (; r < k; ++r) {
      const double v = read(r, c);
      column += v;
      take(v, r, c);
    }
    total += column;
    sx += column * c;
  }
  // The maximum: the largest value, the smallest index among equals.
  for (int offset = 16; offset > 0; offset /= 2) {
    const double v = __shfl_down_sync(0xffffffffu, peak, offset);
    const int i = __shfl_down_sync(0xffffffffu, at, offset);
    if (v > peak || (v == peak && i < at)) {
      peak = v;
      at = i;
    }
  }
  if (threadIdx.x % 32 == 0) {
    peak_value[threadIdx.x / 32] = peak;
    peak_index[threadIdx.x / 32] = at;
  }
  __syncthreads();
  peak = peak_value[0];
  at = peak_index[0];
  for (int w = 1; w < warps; ++w)
    if (peak_value[w] > peak || (peak_value[w] == peak && peak_index[w] < at)) {
      peak = peak_value[w];
      at = peak_index[w];
    }
  total = block_sum<block_threads>(total, scratch);
  sx = block_sum<block_threads>(sx, scratch) - m.axis * total;
  sy = block_sum<block_threads>(sy, scratch) - m.axis * total;
  // Encircled energy is encircled_energy_kernel.cu's, from the whole plane or the pupils.
  if (threadIdx.x == 0) {
    if (m.strehl >= 0) row[m.strehl] = peak / m.peak_reference;
    if (m.centroid_x >= 0) row[m.centroid_x] = sx / total * m.pixel_scale;
    if (m.centroid_y >= 0) row[m.centroid_y] = sy / total * m.pixel_scale;
    if (m.strehl_centre >= 0) {
      const int i0 = static_cast<int>(floor(m.axis));
      const double t = m.axis - i0;
      const double centre = t == 0.0 || i0 + 1 >= k
                                ? read(i0, i0)
                                : (1 - t) * ((1 - t) * read(i0, i0) + t * read(i0, i0 + 1)) +
                                      t * ((1 - t) * read(i0 + 1, i0) + t * read(i0 + 1, i0 + 1));
      row[m.strehl_centre] = centre / m.peak_reference;
    }
  }
  if (m.rms >= 0) {
    const double* p = moments.partials + 3LL * f * moments.blocks_per_frame;
    if (threadIdx.x == 0) {
      double a = 0.0, aw = 0.0, aw2 = 0.0;
      for (int b = 0; b < moments.blocks_per_frame; ++b) {
        a += p[3 * b];
        aw += p[3 * b + 1];
        aw2 += p[3 * b + 2];
      }
      row[m.rms] = metric::weighted_rms(a, aw, aw2);
    }
  }
  if (m.fwhm < 0) return;

  // The radial profile about the maximum: first near it, then, if it never halves there,
  // over the whole frame.
  const int peak_r = at / k;
  const int peak_c = at - peak_r * k;
  double* sums = profile;
  double* distances = profile + m.fwhm_bins;
  double* counts = profile + 2 * m.fwhm_bins;
  __shared__ double half_width;
  for (int attempt = 0; attempt < metric::fwhm_attempts; ++attempt) {
    const bool near = attempt + 1 < metric::fwhm_attempts;
    const int box = near ? metric::fwhm_box(attempt) : k;
    const int bins = near ? min(box, m.fwhm_bins) : m.fwhm_bins;
    for (int b = threadIdx.x; b < 3 * m.fwhm_bins; b += block_threads) profile[b] = 0.0;
    __syncthreads();
    const int r0 = near ? max(0, peak_r - box) : 0;
    const int r1 = near ? min(k, peak_r + box + 1) : k;
    const int c0 = near ? max(0, peak_c - box) : 0;
    const int c1 = near ? min(k, peak_c + box + 1) : k;
    const int width = c1 - c0;
    const int count = (r1 - r0) * width;
    for (int i = threadIdx.x; i < count; i += block_threads) {
      const int r = r0 + i / width;
      const int c = c0 + i % width;
      const double d = hypot(static_cast<double>(c - peak_c), static_cast<double>(r - peak_r));
      const int b = metric::profile_bin(d);
      if (b >= bins) continue;
      atomicAdd(&sums[b], read(r, c));
      atomicAdd(&distances[b], d);
      atomicAdd(&counts[b], 1.0);
    }
    __syncthreads();
    if (threadIdx.x == 0) half_width = metric::half_width(sums, distances, counts, bins, peak);
    __syncthreads();
    const bool whole_frame_seen = !near || (r0 == 0 && c0 == 0 && r1 == k && c1 == k);
    if (!isnan(half_width) || whole_frame_seen) break;
  }
  if (threadIdx.x == 0) row[m.fwhm] = 2.0 * half_width * m.pixel_scale;
}

template <typename Real>
__global__ void plane_intensity_kernel(Real* __restrict__ plane,
                                       const DeviceComplex<Real>* __restrict__ fields,
                                       long long count) {
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const DeviceComplex<Real> z = fields[i];
    plane[i] = z.x * z.x + z.y * z.y;
  }
}

// One block per frame, one warp per frequency at a time: each lane takes directions, whose
// places in the half plane were worked out on the host.
template <typename Real>
__global__ void __launch_bounds__(block_threads)
    mtf_sampling_kernel(const DeviceComplex<Real>* __restrict__ half_planes, int padded,
                        DeviceMetrics m, double* __restrict__ out) {
  const int f = blockIdx.x;
  const DeviceComplex<Real>* otf =
      half_planes + static_cast<long long>(f) * padded * (padded / 2 + 1);
  const auto modulus = [otf](int at) {
    const DeviceComplex<Real> z = otf[at];
    return hypot(static_cast<double>(z.x), static_cast<double>(z.y));
  };
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  double* row = out + static_cast<long long>(f) * m.values_per_frame + m.mtf;
  const double dc = modulus(0);
  for (int q = warp; q < m.mtf_count; q += warps) {
    const double radius = m.mtf_radii[q];
    const int first = m.mtf_first[q];
    const int n = m.mtf_first[q + 1] - first;
    double sum = 0.0;
    for (int j = lane; j < n; j += 32) {
      const MtfSample s = m.mtf_samples[first + j];
      sum += metric::mtf_blend({0, 0, s.fy, s.fx}, modulus(s.at[0]), modulus(s.at[1]),
                               modulus(s.at[2]), modulus(s.at[3]));
    }
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) row[q] = !(dc > 0.0) ? NAN : radius == 0.0 ? 1.0 : sum / n / dc;
  }
}

}  // namespace

DeviceMetrics::DeviceMetrics(const MetricsPlan& plan, int frame_edge, double aperture_sum) {
  edge = frame_edge;
  values_per_frame = static_cast<int>(plan.values_per_frame);
  axis = plan.axis;
  pixel_scale = plan.pixel_scale;
  peak_reference = aperture_sum * aperture_sum * plan.peak_factor;
  fwhm_bins = plan.fwhm_bins;
  mtf_count = static_cast<int>(plan.mtf_radii.size());
  for (int q = 0; q < mtf_count; ++q) mtf_radii[q] = plan.mtf_radii[q];
  for (const MetricColumn& c : plan.columns) {
    const int offset = static_cast<int>(c.offset);
    switch (c.metric) {
      case Metric::strehl: strehl = offset; break;
      case Metric::strehl_centre: strehl_centre = offset; break;
      case Metric::centroid: (c.name == "centroid_x" ? centroid_x : centroid_y) = offset; break;
      case Metric::fwhm: fwhm = offset; break;
      case Metric::ee: ee = offset; break;
      case Metric::rms_wavefront: rms = offset; break;
      case Metric::mtf: mtf = offset; break;
      case Metric::contrast:
      case Metric::throughput: break;  // the run's, from the frames on the host
    }
  }
}

std::vector<MtfSample> mtf_samples(DeviceMetrics& m, int padded) {
  std::vector<MtfSample> samples;
  for (int q = 0; q < m.mtf_count; ++q) {
    m.mtf_first[q] = static_cast<int>(samples.size());
    const double radius = m.mtf_radii[q];
    const int n = metric::mtf_directions(radius);
    for (int j = 0; j < n; ++j) {
      const metric::MtfPoint p = metric::mtf_point(radius, j, n);
      MtfSample s;
      s.at[0] = static_cast<int>(metric::half_plane_index(p.r, p.c, padded));
      s.at[1] = static_cast<int>(metric::half_plane_index(p.r, p.c + 1, padded));
      s.at[2] = static_cast<int>(metric::half_plane_index(p.r + 1, p.c, padded));
      s.at[3] = static_cast<int>(metric::half_plane_index(p.r + 1, p.c + 1, padded));
      s.fy = p.fy;
      s.fx = p.fx;
      samples.push_back(s);
    }
  }
  m.mtf_first[m.mtf_count] = static_cast<int>(samples.size());
  return samples;
}

template <typename Real>
void launch_frame_metrics(const FieldWindow<Real>& window, const DeviceMetrics& metrics,
                          const WavefrontMoments& moments, int frames, double* out,
                          cudaStream_t stream) {
  const std::size_t shared =
      metrics.fwhm >= 0 ? 3 * sizeof(double) * static_cast<std::size_t>(metrics.fwhm_bins) : 0;
  frame_metrics_kernel<Real><<<static_cast<unsigned>(frames), block_threads, shared, stream>>>(
      window, metrics, moments, out);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launch_plane_intensity(Real* plane, const DeviceComplex<Real>* fields, int padded, int frames,
                            cudaStream_t stream) {
  const long long count = static_cast<long long>(frames) * padded * padded;
  const long long blocks = std::min<long long>(132LL * 16, (count + 255) / 256);
  plane_intensity_kernel<Real>
      <<<static_cast<unsigned>(blocks), 256, 0, stream>>>(plane, fields, count);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template <typename Real>
void launch_mtf_sampling(const DeviceComplex<Real>* half_planes, int padded, int frames,
                         const DeviceMetrics& metrics, double* out, cudaStream_t stream) {
  mtf_sampling_kernel<Real><<<static_cast<unsigned>(frames), block_threads, 0, stream>>>(
      half_planes, padded, metrics, out);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

#define PSFSIM_INSTANTIATE(Real)                                                                 \
  template void launch_frame_metrics<Real>(const FieldWindow<Real>&, const DeviceMetrics&,       \
                                           const WavefrontMoments&, int, double*, cudaStream_t); \
  template void launch_plane_intensity<Real>(Real*, const DeviceComplex<Real>*, int, int,        \
                                             cudaStream_t);                                      \
  template void launch_mtf_sampling<Real>(const DeviceComplex<Real>*, int, int,                  \
                                          const DeviceMetrics&, double*, cudaStream_t);
PSFSIM_INSTANTIATE(float)
PSFSIM_INSTANTIATE(double)
#undef PSFSIM_INSTANTIATE

}  // namespace psfsim::cuda

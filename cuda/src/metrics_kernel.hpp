#pragma once
// docs/spec.md §7's metrics on the device, in the same call as the frames: one block per frame
// reads
// the unnormalized intensity straight from the focal-plane fields (the FFT's output or the
// MFT's channels), so that with --store metrics no frame is ever written. The formulas are
// metric_math.hpp's, shared with the CPU.
#include <cuda_runtime_api.h>

#include <vector>

#include "device_complex.hpp"
#include "psfsim/metrics.hpp"

namespace psfsim::cuda {

// Where frame f's K x K intensity lies: sum_k weights[k] |fields[k * channel_stride +
// f * frame_stride + (first + r) * row_stride + first + c]|^2, or intensity[f * frame_stride +
// ...] where the transform kept |X|^2 alone.
template <typename Real>
struct FieldWindow {
  const DeviceComplex<Real>* fields = nullptr;
  const Real* intensity = nullptr;
  long long frame_stride = 0;
  long long row_stride = 0;
  long long channel_stride = 0;
  int first = 0;
  int channels = 1;
  const double* weights = nullptr;  // device, one per channel; null: 1
};

// One direction of an MTF ring, the same for every frame and so worked out once on the host:
// its four neighbours' places in a frame's OTF half plane (metric::half_plane_index) and
// its fractions past the first (metric::mtf_point).
struct MtfSample {
  int at[4] = {};  // (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)
  double fy = 0.0;
  double fx = 0.0;
};

// The plan's metrics as kernel parameters (absent columns at -1).
struct DeviceMetrics {
  int edge = 0;  // K
  int values_per_frame = 0;
  double axis = 0.0;
  double pixel_scale = 0.0;
  double peak_reference = 1.0;  // (sum A)^2 * peak_factor
  int fwhm_bins = 0;
  int strehl = -1, strehl_centre = -1, centroid_x = -1, centroid_y = -1, fwhm = -1, ee = -1,
      rms = -1, mtf = -1;
  int mtf_count = 0;
  double mtf_radii[max_mtf_frequencies] = {};
  // The rings' directions (mtf_samples below): ring q's are [mtf_first[q], mtf_first[q + 1]).
  const MtfSample* mtf_samples = nullptr;
  int mtf_first[max_mtf_frequencies + 1] = {};

  DeviceMetrics() = default;
  DeviceMetrics(const MetricsPlan& plan, int edge, double aperture_sum);
};

// The samples of m's rings for M x M planes, in ring order; sets m.mtf_first (the caller
// uploads them and sets m.mtf_samples).
[[nodiscard]] std::vector<MtfSample> mtf_samples(DeviceMetrics& m, int padded);

// Sums of A, A W and A W^2 that the pupil kernel leaves per block (PupilMaps::moments), and
// how many blocks each frame of the launch had.
struct WavefrontMoments {
  const double* partials = nullptr;  // 3 per block
  int blocks_per_frame = 0;
};

// Frames [0, frames) of `window`: every column but ee and mtf into out + f * values_per_frame
// (device or mapped pinned memory).
template <typename Real>
void launch_frame_metrics(const FieldWindow<Real>& window, const DeviceMetrics& metrics,
                          const WavefrontMoments& moments, int frames, double* out,
                          cudaStream_t stream);

// The MTF around the caller's real-to-complex FFT of M x M intensity planes: the intensity
// of each frame's whole field into `plane` (where no pass kept it already), then, after
// the FFT, the mtf columns sampled from the transform's non-redundant half (M x (M/2 + 1)
// a frame, metric::half_plane_index).
template <typename Real>
void launch_plane_intensity(Real* plane, const DeviceComplex<Real>* fields, int padded, int frames,
                            cudaStream_t stream);
template <typename Real>
void launch_mtf_sampling(const DeviceComplex<Real>* half_planes, int padded, int frames,
                         const DeviceMetrics& metrics, double* out, cudaStream_t stream);

}  // namespace psfsim::cuda

#pragma once
// docs/spec.md §7's per-frame metrics: what the user asks for (MetricsSpec), and what a backend
// needs
// to compute them where the frames are (MetricsPlan). The formulas shared by every backend
// are in metric_math.hpp.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace psfsim {

// In the order of their columns in a frame's metric values.
// contrast and throughput come last: the run computes them on the host from the frames
// (train_metrics.hpp), after the backend's columns.
enum class Metric {
  strehl,
  strehl_centre,
  centroid,
  fwhm,
  ee,
  rms_wavefront,
  mtf,
  contrast,
  throughput
};
inline constexpr int metric_kinds = 9;
// Computed by the run from the frames, not by the backend.
[[nodiscard]] constexpr bool host_metric(Metric m) noexcept {
  return m == Metric::contrast || m == Metric::throughput;
}

// What the file keeps: --store frames|metrics|both.
enum class Store { frames, metrics, both };

[[nodiscard]] std::string_view to_string(Metric m) noexcept;
[[nodiscard]] std::string_view to_string(Store s) noexcept;
[[nodiscard]] std::optional<Store> parse_store(std::string_view s) noexcept;

inline const std::vector<double> default_ee_radii{0.5, 1.0, 1.22, 1.5, 2.0, 2.23, 3.0, 5.0};
inline const std::vector<double> default_mtf_frequencies{0.1, 0.2, 0.3, 0.4, 0.5,
                                                         0.6, 0.7, 0.8, 0.9};
inline const std::vector<double> default_contrast_radii{2, 3, 4, 5, 6, 8, 10, 12, 15, 20};
inline constexpr std::size_t max_contrast_radii = 256;
// The GPU keeps one accumulator per radius in registers.
inline constexpr std::size_t max_ee_radii = 32;
inline constexpr std::size_t max_mtf_frequencies = 64;

struct MetricsSpec {
  std::vector<Metric> metrics;                      // canonical order, no repeats; empty: none
  std::vector<double> ee_radii = default_ee_radii;  // lambda_ref / D
  std::vector<double> mtf_frequencies = default_mtf_frequencies;  // units of the cutoff D/lambda
  std::vector<double> contrast_radii = default_contrast_radii;    // lambda_ref / D
  std::optional<Store> store;  // unset: frames without metrics, both with them
  [[nodiscard]] bool has(Metric m) const noexcept;
  [[nodiscard]] Store resolved_store() const noexcept;
  [[nodiscard]] bool stores_frames() const noexcept { return resolved_store() != Store::metrics; }
  // --store frames keeps no metrics even where --metrics names some: none are computed.
  [[nodiscard]] bool stores_metrics() const noexcept {
    return !metrics.empty() && resolved_store() != Store::frames;
  }
};

// "strehl,fwhm,ee" or "all"; throws InputError naming --metrics.
[[nodiscard]] std::vector<Metric> parse_metrics(std::string_view text);
// A comma-separated list of finite numbers; throws InputError naming `option`.
[[nodiscard]] std::vector<double> parse_number_list(std::string_view text, std::string_view option);

// One dataset of /metrics: its name and how many values a frame has in it.
struct MetricColumn {
  Metric metric;
  std::string name;        // centroid gives centroid_x and centroid_y, contrast
                           // contrast_mean and contrast_std
  std::size_t offset = 0;  // first value in a frame's row
  std::size_t width = 1;   // ee, contrast: one per radius, mtf: one per frequency
};

// Everything a backend needs, in the units of the frames it computes.
struct MetricsPlan {
  std::vector<MetricColumn> columns;  // empty: no metrics
  std::size_t values_per_frame = 0;
  bool store_frames = true;  // false: no frame leaves the backend
  double pixel_scale = 0.5;  // lambda_ref / D per computed pixel
  double axis = 0.0;         // computed pixel (row and column) on the optical axis
  // The aberration-free peak is (sum A)^2 * peak_factor in the backend's unnormalized
  // intensity.
  double peak_factor = 1.0;
  // lambda_ref / D; the backends evaluate `ee` from the pupil's sampled field, exactly
  // (encircled_energy_weights.hpp), not from the frame's pixels.
  std::vector<double> ee_radii;
  std::vector<double> mtf_radii;  // OTF samples of the M x M plane's transform
  int fwhm_bins = 0;              // radial profile bins (1 pixel each)

  [[nodiscard]] bool empty() const noexcept { return columns.empty(); }
  [[nodiscard]] const MetricColumn* column(Metric m) const noexcept;
  // The MTF needs the whole M x M plane of the FFT, not only the crop window.
  [[nodiscard]] bool needs_full_plane() const noexcept { return column(Metric::mtf) != nullptr; }
};

// The columns of `spec` in canonical order (the backend's, then the host's).
[[nodiscard]] std::vector<MetricColumn> metric_columns(const MetricsSpec& spec);

}  // namespace psfsim

#include "psfsim/metrics.hpp"

#include <algorithm>
#include <cmath>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {
namespace {

constexpr Metric all_metrics[metric_kinds] = {
    Metric::strehl,        Metric::strehl_centre, Metric::centroid, Metric::fwhm,      Metric::ee,
    Metric::rms_wavefront, Metric::mtf,           Metric::contrast, Metric::throughput};

}  // namespace

std::string_view to_string(Metric m) noexcept {
  switch (m) {
    case Metric::strehl: return "strehl";
    case Metric::strehl_centre: return "strehl_centre";
    case Metric::centroid: return "centroid";
    case Metric::fwhm: return "fwhm";
    case Metric::ee: return "ee";
    case Metric::rms_wavefront: return "rms_wavefront";
    case Metric::mtf: return "mtf";
    case Metric::contrast: return "contrast";
    case Metric::throughput: return "throughput";
  }
  return "?";
}

std::string_view to_string(Store s) noexcept {
  switch (s) {
    case Store::frames: return "frames";
    case Store::metrics: return "metrics";
    case Store::both: return "both";
  }
  return "?";
}

std::optional<Store> parse_store(std::string_view s) noexcept {
  for (Store v : {Store::frames, Store::metrics, Store::both})
    if (s == to_string(v)) return v;
  return std::nullopt;
}

bool MetricsSpec::has(Metric m) const noexcept {
  return std::find(metrics.begin(), metrics.end(), m) != metrics.end();
}

Store MetricsSpec::resolved_store() const noexcept {
  if (store) return *store;
  return metrics.empty() ? Store::frames : Store::both;
}

std::vector<Metric> parse_metrics(std::string_view text) {
  std::vector<Metric> chosen;
  for (std::string_view name : split_fields(text)) {
    if (name == "all") {
      // The PSF's own seven; contrast and throughput are named.
      for (Metric m : all_metrics)
        if (!host_metric(m)) chosen.push_back(m);
      continue;
    }
    const auto* found = std::find_if(std::begin(all_metrics), std::end(all_metrics),
                                     [&](Metric m) { return to_string(m) == name; });
    if (found == std::end(all_metrics))
      throw InputError(flag(Option::metrics) + " " + std::string(text) + ": unknown metric '" +
                       std::string(name) +
                       "' (known: strehl, strehl_centre, centroid, fwhm, ee, rms_wavefront, "
                       "mtf, contrast, throughput, or all: the first seven)");
    chosen.push_back(*found);
  }
  std::vector<Metric> canonical;
  for (Metric m : all_metrics)
    if (std::find(chosen.begin(), chosen.end(), m) != chosen.end()) canonical.push_back(m);
  return canonical;
}

std::vector<double> parse_number_list(std::string_view text, std::string_view option) {
  std::vector<double> values;
  for (std::string_view part : split_fields(text)) {
    const auto v = parse_finite_double(part);
    if (!v)
      throw InputError(std::string(option) + " " + std::string(text) + ": '" + std::string(part) +
                       "' is not a finite number");
    values.push_back(*v);
  }
  return values;
}

std::vector<MetricColumn> metric_columns(const MetricsSpec& spec) {
  std::vector<MetricColumn> columns;
  std::size_t offset = 0;
  const auto add = [&](Metric m, std::string name, std::size_t width) {
    columns.push_back(MetricColumn{m, std::move(name), offset, width});
    offset += width;
  };
  for (Metric m : spec.metrics) {
    switch (m) {
      case Metric::centroid:
        add(m, "centroid_x", 1);
        add(m, "centroid_y", 1);
        break;
      case Metric::ee: add(m, "ee", spec.ee_radii.size()); break;
      case Metric::mtf: add(m, "mtf", spec.mtf_frequencies.size()); break;
      case Metric::contrast:
        add(m, "contrast_mean", spec.contrast_radii.size());
        add(m, "contrast_std", spec.contrast_radii.size());
        break;
      default: add(m, std::string(to_string(m)), 1); break;
    }
  }
  return columns;
}

const MetricColumn* MetricsPlan::column(Metric m) const noexcept {
  for (const auto& c : columns)
    if (c.metric == m) return &c;
  return nullptr;
}

}  // namespace psfsim

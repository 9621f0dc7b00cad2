#include "metrics_options.hpp"

#include <algorithm>

#include "psfsim/text_fields.hpp"
#include "psfsim/run_plan.hpp"

namespace psfsim::app {

void bind_options(MetricsOptions& o, OptionBindings& b) {
  b.bind(Option::metrics, o.metrics);
  b.bind(Option::ee_radii, o.ee_radii);
  b.bind(Option::mtf_frequencies, o.mtf_frequencies);
  b.bind(Option::contrast_radii, o.contrast_radii);
  b.bind(Option::store, o.store);
}

void apply(const MetricsOptions& o, RunSpec& s) {
  MetricsSpec& m = s.metrics;
  if (!o.metrics.empty()) m.metrics = parse_metrics(o.metrics);
  if (!o.ee_radii.empty()) m.ee_radii = parse_number_list(o.ee_radii, flag(Option::ee_radii));
  // "all" is every metric this run can compute: the MTF only where the FFT gives the whole
  // focal plane (a physical, polychromatic or MFT run has none), so that `all` always runs.
  const auto names = split_fields(o.metrics);
  if (std::find(names.begin(), names.end(), "all") != names.end() && !mtf_unavailable(s).empty())
    std::erase(m.metrics, Metric::mtf);
  if (!o.mtf_frequencies.empty())
    m.mtf_frequencies = parse_number_list(o.mtf_frequencies, flag(Option::mtf_frequencies));
  if (!o.contrast_radii.empty())
    m.contrast_radii = parse_number_list(o.contrast_radii, flag(Option::contrast_radii));
  if (!o.store.empty()) m.store = parse_store(o.store);
}

}  // namespace psfsim::app

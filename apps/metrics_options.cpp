#include "metrics_options.hpp"

#include <algorithm>

#include "option_checks.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/run_plan.hpp"

namespace psfsim::app {

void add_metrics_options(CLI::App& run, MetricsOptions& o) {
  run.add_option("--metrics", o.metrics,
                 "Per-frame metrics computed where the frames are, written to /metrics: "
                 "strehl (maximum over the aberration-free peak), strehl_centre, centroid "
                 "(lambda/D), fwhm (lambda/D), ee (at --ee-radii), rms_wavefront (waves), mtf "
                 "(at --mtf-frequencies), or all")
      ->type_name("LIST");
  run.add_option("--ee-radii", o.ee_radii,
                 "Encircled-energy radii in lambda/D about the optical axis (default " +
                     format_number_list(default_ee_radii) + ")")
      ->type_name("R1,R2,...");
  run.add_option("--mtf-frequencies", o.mtf_frequencies,
                 "MTF frequencies as fractions of the cutoff D/lambda, in [0, 1] (default " +
                     format_number_list(default_mtf_frequencies) + ")")
      ->type_name("NU1,NU2,...");
  run.add_option("--store", o.store,
                 "What the file keeps: frames (/psf), metrics (/metrics only: no frame leaves "
                 "the device) or both; default frames, or both with --metrics")
      ->check(one_of({"frames", "metrics", "both"}))
      ->type_name("frames|metrics|both");
}

void apply(const MetricsOptions& o, RunSpec& s) {
  MetricsSpec& m = s.metrics;
  if (!o.metrics.empty()) m.metrics = parse_metrics(o.metrics);
  if (!o.ee_radii.empty()) m.ee_radii = parse_number_list(o.ee_radii, "--ee-radii");
  // "all" is every metric this run can compute: the MTF only where the FFT gives the whole
  // focal plane (a physical, polychromatic or MFT run has none), so that `all` always runs.
  const auto names = split_fields(o.metrics);
  if (std::find(names.begin(), names.end(), "all") != names.end() && !mtf_unavailable(s).empty())
    std::erase(m.metrics, Metric::mtf);
  if (!o.mtf_frequencies.empty())
    m.mtf_frequencies = parse_number_list(o.mtf_frequencies, "--mtf-frequencies");
  if (!o.store.empty()) m.store = parse_store(o.store);
}

}  // namespace psfsim::app

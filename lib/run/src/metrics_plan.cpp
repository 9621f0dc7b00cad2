#include "metrics_plan.hpp"

#include <algorithm>
#include <cmath>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"
#include "psfsim/run_plan.hpp"

namespace psfsim {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

// Most radial-profile bins of the FWHM (the GPU keeps them in shared memory).
constexpr int max_profile_bins = 1024;

}  // namespace

std::string mtf_unavailable(const RunSpec& spec, const Geometry& g) {
  if (!g.fft_applies || spec.optics.propagation == Propagation::mft)
    return "the MTF is the transform of the whole focal plane, which only the FFT propagation "
           "computes (one wavelength, whole detector pixels with " +
           flag(Option::oversample) + " 1, no " + flag(Option::propagation) + " mft)";
  if (g.padded < 2 * g.samples - 1)
    return "needs a padded size of at least 2N - 1 (" + std::to_string(2 * g.samples - 1) +
           ") so that the PSF is sampled at Nyquist; use " + flag(Option::pad_factor) +
           " 2 or more";
  return {};
}

std::string mtf_unavailable(const RunSpec& spec) { return mtf_unavailable(spec, geometry(spec)); }

void validate_metrics(const RunSpec& spec, const Geometry& g) {
  const MetricsSpec& m = spec.metrics;
  require(!(m.store && *m.store != Store::frames && m.metrics.empty()),
          flag(Option::store) + " " + std::string(m.store ? to_string(*m.store) : "") +
              ": no metrics to store; give " + flag(Option::metrics) + " too");
  if (m.has(Metric::ee)) {
    const std::string radii = flag(Option::ee_radii) + " " + format_number_list(m.ee_radii);
    require(!m.ee_radii.empty() && m.ee_radii.size() <= max_ee_radii,
            radii + ": give 1 to " + std::to_string(max_ee_radii) + " radii");
    for (double r : m.ee_radii)
      require(std::isfinite(r) && r > 0.0, radii + ": radii must be > 0 (lambda/D)");
  }
  if (m.has(Metric::mtf)) {
    const std::string frequencies =
        flag(Option::mtf_frequencies) + " " + format_number_list(m.mtf_frequencies);
    require(!m.mtf_frequencies.empty() && m.mtf_frequencies.size() <= max_mtf_frequencies,
            frequencies + ": give 1 to " + std::to_string(max_mtf_frequencies) + " frequencies");
    for (double v : m.mtf_frequencies)
      require(std::isfinite(v) && v >= 0.0 && v <= 1.0,
              frequencies + ": frequencies are fractions of the cutoff D/lambda, in [0, 1]");
    const std::string why = mtf_unavailable(spec, g);
    require(why.empty(), flag(Option::metrics) + " mtf: " + why);
  }
}

MetricsPlan make_metrics_plan(const RunSpec& spec, const Geometry& g, const PsfPlan& plan) {
  MetricsPlan m;
  const MetricsSpec& s = spec.metrics;
  m.store_frames = s.stores_frames();
  if (!s.stores_metrics()) return m;
  m.columns = metric_columns(s);
  for (const auto& c : m.columns) m.values_per_frame += c.width;
  const SampledPupil& facts = plan.sampled_pupil();
  require(!(facts.amplitude_maps > 1 &&
            (s.has(Metric::strehl) || s.has(Metric::strehl_centre) || s.has(Metric::ee))),
          flag(Option::metrics) +
              ": strehl, strehl_centre and ee take one aperture's sums; one "
              "amplitude map per frame (" +
              flag(Option::pupil_amplitude) + ") allows the others only");
  m.pixel_scale = g.pixel_scale_lambda_over_d / g.oversample;
  if (plan.propagation == Propagation::fft) {
    m.axis = plan.frame / 2;  // M/2 of the spectrum, in the crop window
    m.peak_factor = 1.0;
  } else {
    m.axis = plan.pixel_centre;
    m.peak_factor = 0.0;
    for (const SpectralChannel& c : plan.channels) m.peak_factor += c.weight;
  }
  if (s.has(Metric::ee)) m.ee_radii = s.ee_radii;
  if (s.has(Metric::mtf))
    for (double v : s.mtf_frequencies) m.mtf_radii.push_back(v * plan.padded * m.pixel_scale);
  m.fwhm_bins =
      std::min(max_profile_bins, static_cast<int>(std::ceil(plan.frame * std::sqrt(2.0))) + 2);
  return m;
}

}  // namespace psfsim

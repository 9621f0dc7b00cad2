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

// A list option's values: 1 to `most` of them, each finite and `valid`.
template <class Valid>
void require_list(const std::vector<double>& values, Option option, std::size_t most,
                  const char* noun, Valid valid, const char* rule) {
  const std::string named = flag(option) + " " + format_number_list(values);
  require(!values.empty() && values.size() <= most,
          named + ": give 1 to " + std::to_string(most) + " " + noun);
  for (double v : values) require(std::isfinite(v) && valid(v), named + ": " + rule);
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
  // A list is checked whether or not its metric is asked for: a wrong value is a mistake
  // either way, and one left unused would otherwise pass unseen.
  require_list(
      m.ee_radii, Option::ee_radii, max_ee_radii, "radii", [](double r) { return r > 0.0; },
      "radii must be > 0 (lambda/D)");
  require_list(
      m.contrast_radii, Option::contrast_radii, max_contrast_radii, "radii",
      [](double r) { return r >= 0.0; }, "radii must be >= 0 (lambda/D)");
  require_list(
      m.mtf_frequencies, Option::mtf_frequencies, max_mtf_frequencies, "frequencies",
      [](double v) { return v >= 0.0 && v <= 1.0; },
      "frequencies are fractions of the cutoff D/lambda, in [0, 1]");
  if (m.has(Metric::contrast) || m.has(Metric::throughput)) {
    const std::string named = flag(Option::metrics) + " contrast and throughput";
    require(!g.detector_stage(spec.optics),
            named + " describe the optical frame: not with " + flag(Option::oversample) + ", " +
                flag(Option::jitter) + " or " + flag(Option::photons));
    require(spec.normalization != Normalization::sum,
            named + " need " + flag(Option::normalize) + " peak or none");
  }
  if (m.has(Metric::mtf)) {
    const std::string why = mtf_unavailable(spec, g);
    require(why.empty(), flag(Option::metrics) + " mtf: " + why);
  }
}

MetricsPlan make_metrics_plan(const RunSpec& spec, const Geometry& g, const PsfPlan& plan) {
  MetricsPlan m;
  const MetricsSpec& s = spec.metrics;
  // The host's metrics are computed from the frames, which must then leave the backend.
  m.store_frames = s.stores_frames() ||
                   (s.stores_metrics() && (s.has(Metric::contrast) || s.has(Metric::throughput)));
  if (!s.stores_metrics()) return m;
  // The host's columns come last, outside the backend's rows (train_metrics.hpp).
  for (const MetricColumn& c : metric_columns(s))
    if (!host_metric(c.metric)) m.columns.push_back(c);
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

HostMetricsPlan make_host_metrics_plan(const RunSpec& spec, const Geometry& g,
                                       const PsfPlan& plan) {
  HostMetricsPlan h;
  const MetricsSpec& s = spec.metrics;
  if (!s.stores_metrics()) return h;
  if (s.has(Metric::contrast)) h.contrast_radii = s.contrast_radii;
  h.throughput = s.has(Metric::throughput);
  if (h.empty()) return h;
  h.offset = plan.metrics.values_per_frame;  // the backend's columns come first
  for (const MetricColumn& c : metric_columns(s)) h.values_per_frame += c.width;
  h.frame = plan.frame;
  h.pixel_scale = g.pixel_scale_lambda_over_d;
  h.axis = plan.propagation == Propagation::fft ? plan.frame / 2 : plan.pixel_centre;
  const SampledPupil& facts = plan.sampled_pupil();
  // The aberration-free peak of the train without its masks (or of the PSF), in the units of
  // unnormalized frames: sum_k w_k |sum L_k|^2.
  double peak = 0.0;
  for (std::size_t c = 0; c < plan.channels.size(); ++c) {
    const double w = plan.propagation == Propagation::fft ? 1.0 : plan.channels[c].weight;
    peak += w * (plan.train ? plan.train->channels[c].unmasked_peak
                            : facts.aperture_sum * facts.aperture_sum);
  }
  const bool normalized = plan.normalization == Normalization::peak;
  h.to_contrast = normalized ? 1.0 : 1.0 / peak;
  // Parseval: one period of the focal plane, (1/dxi)^2 in lambda/D, holds sum A^2 / dxi^2;
  // a pixel of s^2 of it holds s^2 |E|^2.
  const double dxi = (facts.coordinates[1] - facts.coordinates[0]) / 2.0;
  const double unnormalized = normalized ? peak : 1.0;
  h.energy_scale = dxi * dxi * h.pixel_scale * h.pixel_scale * unnormalized / facts.energy_sum;
  return h;
}

}  // namespace psfsim

#include "sweep_options.hpp"

#include <sstream>

#include "option_setup.hpp"
#include "psfsim/number_text.hpp"

namespace psfsim::app {

void add_sweep_options(CLI::App& sweep, SweepOptions& o) {
  OptionBindings b;
  b.bind(Option::sweep_output, o.output);
  b.bind(Option::force, o.force);
  b.bind(Option::sizes, o.sizes);
  b.bind(Option::sweep_pad_factor, o.pad_factor);
  b.bind(Option::backends, o.backends);
  b.bind(Option::precisions, o.precisions);
  b.bind(Option::batch, o.batch);
  b.bind(Option::sweep_repeat, o.repeat);
  b.bind(Option::sweep_crop, o.crops);
  b.bind(Option::sweep_propagation, o.propagations);
  b.bind(Option::sweep_quiet, o.quiet);
  bind_options(o.pupil, b);
  bind_options(o.metrics, b);
  add_options(sweep, Command::sweep, b);
  sweep.footer("Without --seidel or --zernike the pupil has one wave of rho^2 cos(phi) (2,1,1); "
               "each frame of a batch adds a different defocus. Options can also be set in the "
               "[sweep] table of a config file (-c FILE).");
}

namespace {

std::string toml_array(const std::vector<int>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

std::string toml_array(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + toml_string(values[i]);
  return out + "]";
}

}  // namespace

std::string to_toml(const SweepOptions& o, const std::vector<std::string>& backends) {
  std::ostringstream t;
  t << "[sweep]\n";
  t << "sizes = " << toml_array(o.sizes) << "\n";
  t << "pad-factor = " << format_number(o.pad_factor) << "\n";
  t << "backends = " << toml_array(backends) << "\n";
  t << "precisions = " << toml_array(o.precisions) << "\n";
  t << "batch = " << toml_array(o.batch) << "\n";
  t << "repeat = " << o.repeat << "\n";
  if (!o.crops.empty()) t << "crop = " << toml_array(o.crops) << "\n";
  t << "propagation = " << toml_array(o.propagations) << "\n";
  const PupilOptions& p = o.pupil;
  t << "grid = " << toml_string(p.grid) << "\n";
  if (!p.seidel.empty()) t << "seidel = " << toml_array(p.seidel) << "\n";
  if (!p.zernike.empty()) t << "zernike = " << toml_array(p.zernike) << "\n";
  const ZernikeConvention zernike = zernike_convention(p);
  t << "zernike-order = " << toml_string(std::string(to_string(zernike.order))) << "\n";
  t << "zernike-norm = " << toml_string(std::string(to_string(zernike.norm))) << "\n";
  t << "obscuration = " << format_number(p.obscuration) << "\n";
  t << "normalize = " << toml_string(p.normalize) << "\n";
  t << "threads = " << p.threads << "\n";
  const MetricsOptions& m = o.metrics;
  if (!m.metrics.empty()) t << "metrics = " << toml_string(m.metrics) << "\n";
  if (!m.ee_radii.empty()) t << "ee-radii = " << toml_string(m.ee_radii) << "\n";
  if (!m.mtf_frequencies.empty())
    t << "mtf-frequencies = " << toml_string(m.mtf_frequencies) << "\n";
  if (!m.store.empty()) t << "store = " << toml_string(m.store) << "\n";
  t << "device = " << p.device << "\n";
  if (!p.wisdom.empty()) t << "wisdom = " << toml_string(p.wisdom) << "\n";
  if (!p.fft_effort.empty()) t << "fft-effort = " << toml_string(p.fft_effort) << "\n";
  if (p.stage_timing) t << "stage-timing = true\n";
  t << "output = " << toml_string(o.output) << "\n";
  return t.str();
}

}  // namespace psfsim::app

#include "sweep_options.hpp"

#include <CLI/CLI.hpp>

#include "option_setup.hpp"
#include "psfsim/config_table.hpp"

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
  sweep.footer(
      "Without --seidel or --zernike the pupil has one wave of rho^2 cos(phi) (2,1,1); "
      "each frame of a batch adds a different defocus. Options can also be set in the "
      "[sweep] table of a config file (-c FILE).");
}

std::string to_toml(const SweepOptions& o, const std::vector<std::string>& backends) {
  ConfigTable t("sweep");
  t.integers(Option::sizes, o.sizes);
  t.number(Option::sweep_pad_factor, o.pad_factor);
  t.texts(Option::backends, backends);
  t.texts(Option::precisions, o.precisions);
  t.integers(Option::batch, o.batch);
  t.integer(Option::sweep_repeat, o.repeat);
  if (!o.crops.empty()) t.integers(Option::sweep_crop, o.crops);
  t.texts(Option::sweep_propagation, o.propagations);
  const PupilOptions& p = o.pupil;
  t.text(Option::grid, p.grid);
  if (!p.seidel.empty()) t.texts(Option::seidel, p.seidel);
  if (!p.zernike.empty()) t.texts(Option::zernike, p.zernike);
  const ZernikeConvention zernike = zernike_convention(p);
  t.text(Option::zernike_order, to_string(zernike.order));
  t.text(Option::zernike_norm, to_string(zernike.norm));
  t.number(Option::obscuration, p.obscuration);
  t.text(Option::normalize, p.normalize);
  t.integer(Option::threads, p.threads);
  const MetricsOptions& m = o.metrics;
  if (!m.metrics.empty()) t.text(Option::metrics, m.metrics);
  if (!m.ee_radii.empty()) t.text(Option::ee_radii, m.ee_radii);
  if (!m.mtf_frequencies.empty()) t.text(Option::mtf_frequencies, m.mtf_frequencies);
  if (!m.store.empty()) t.text(Option::store, m.store);
  t.integer(Option::device, p.device);
  if (!p.wisdom.empty()) t.text(Option::wisdom, p.wisdom);
  if (!p.fft_effort.empty()) t.text(Option::fft_effort, p.fft_effort);
  if (p.stage_timing) t.boolean(Option::stage_timing, true);
  t.text(Option::sweep_output, o.output);
  return t.toml();
}

}  // namespace psfsim::app

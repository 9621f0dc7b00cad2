#include "pupil_options.hpp"


namespace psfsim::app {

void bind_options(PupilOptions& o, OptionBindings& b) {
  b.bind(Option::grid, o.grid);
  b.bind(Option::seidel, o.seidel);
  b.bind(Option::zernike, o.zernike);
  b.bind(Option::zernike_order, o.zernike_order);
  b.bind(Option::zernike_norm, o.zernike_norm);
  b.bind(Option::obscuration, o.obscuration);
  b.bind(Option::normalize, o.normalize);
  b.bind(Option::threads, o.threads);
  b.bind(Option::device, o.device);
  b.bind(Option::fft_effort, o.fft_effort);
  b.bind(Option::wisdom, o.wisdom);
  b.bind(Option::stage_timing, o.stage_timing);
}

ZernikeConvention zernike_convention(const PupilOptions& o) {
  // CLI11 checks both against their lists, from the command line and config files alike.
  const ZernikeOrdering order = *parse_zernike_ordering(o.zernike_order);
  return {order,
          o.zernike_norm.empty() ? default_norm(order) : *parse_zernike_norm(o.zernike_norm)};
}

Aberration parse_terms(const PupilOptions& o) {
  const ZernikeOrdering order = zernike_convention(o).order;
  Aberration terms;
  for (const auto& t : o.seidel) terms.seidel.push_back(parse_seidel(t, flag(Option::seidel)));
  for (const auto& t : o.zernike)
    terms.zernike.push_back(parse_zernike(t, flag(Option::zernike), order));
  return terms;
}

void apply(const PupilOptions& o, RunSpec& s) {
  s.grid = *parse_grid(o.grid);
  s.normalization = *parse_normalization(o.normalize);
  s.obscuration = o.obscuration;
  s.zernike = zernike_convention(o);
  s.threads = o.threads;
  s.device = o.device;
  s.wisdom = o.wisdom;
  s.fft_effort = o.fft_effort.empty() ? FftEffort::automatic : *parse_fft_effort(o.fft_effort);
  s.stage_timing = o.stage_timing;
}

}  // namespace psfsim::app

#include "run_options.hpp"

#include "option_setup.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/frames_file.hpp"
#include "psfsim/pupil_maps.hpp"
#include "psfsim/run_plan.hpp"

namespace psfsim::app {

void add_run_options(CLI::App& run, RunOptions& o) {
  OptionBindings b;
  b.bind(Option::output, o.output);
  b.bind(Option::force, o.force);
  b.bind(Option::backend, o.backend);
  b.bind(Option::precision, o.precision);
  b.bind(Option::samples, o.samples);
  b.bind(Option::pad_factor, o.pad_factor);
  b.bind(Option::padded_size, o.padded_size);
  b.bind(Option::vary, o.vary);
  b.bind(Option::random, o.random);
  b.bind(Option::frames, o.frames);
  b.bind(Option::crop, o.crop);
  b.bind(Option::repeat, o.repeat);
  b.bind(Option::chunk_frames, o.chunk_frames);
  b.bind(Option::compression, o.compression);
  b.bind(Option::quiet, o.quiet);
  bind_options(o.pupil, b);
  bind_options(o.aperture, b);
  bind_options(o.optics, b);
  bind_options(o.metrics, b);
  bind_options(o.train, b);
  bind_options(o.field, b);
  add_options(run, Command::run, b);
}

RunSpec to_run_spec(const RunOptions& o) {
  RunSpec s;
  s.output = o.output;
  s.force = o.force;
  s.backend = o.backend;
  s.precision = *parse_precision(o.precision);
  s.samples = o.samples;
  s.pad_factor = o.pad_factor;
  s.padded_size = o.padded_size;
  apply(o.pupil, s);
  s.crop = o.crop;
  s.optics = to_optics_spec(o.optics);
  apply(o.metrics, s);
  s.repeat = o.repeat;
  s.quiet = o.quiet;
  s.chunk_frames = o.chunk_frames;
  s.compression = o.compression;
  // The effective configuration records the terms as written; the frames hold Noll terms.
  s.fixed_terms = parse_terms(o.pupil);
  s.vary = o.vary;
  s.random = o.random;
  s.frames_file = o.frames;
  s.field.grid_text = o.field.field_grid;
  validate(s);  // before expanding: it checks that at most one batch source is given
  apply(o.field, s, s.fixed_terms);
  const Aberration terms = to_noll(s.fixed_terms, s.zernike);
  if (!o.vary.empty()) s.frames = expand(terms, parse_vary(o.vary, s.zernike));
  else if (!o.random.empty()) {
    // Drawn as the run reaches them: a million frames' terms are not held.
    s.drawn = RandomAberrations{terms, parse_random(o.random, s.zernike.order)};
    s.frames.clear();
  } else if (!o.frames.empty()) s.frames = read_frames_csv(terms, o.frames, s.zernike);
  else if (!o.field.field_grid.empty()) s.frames = field_grid_frames(o.field, s, terms);
  else s.frames = {terms};
  apply(o.aperture, s);         // after the frames: a stack of maps makes the batch
  read_pupil_maps(s.aperture);  // their values, which the sampler takes from the spec
  apply(o.train, s);
  return s;
}

}  // namespace psfsim::app

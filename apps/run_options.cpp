#include "run_options.hpp"

#include "option_checks.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/frames_file.hpp"
#include "psfsim/pupil_maps.hpp"
#include "psfsim/run_plan.hpp"

namespace psfsim::app {

void add_run_options(CLI::App& run, RunOptions& o) {
  run.add_option("-o,--output", o.output, "HDF5 file to write (appears only when complete)")
      ->type_name("FILE");
  run.add_flag("--force", o.force, "Replace an existing output (a regular file only)");
  const BackendRegistry& registry = builtin_backends();
  std::vector<std::string> choices = registry.names();
  std::string order;
  for (const auto& n : choices) order += (order.empty() ? "" : ", then ") + n;
  choices.push_back("auto");
  run.add_option("--backend", o.backend,
                 registry.summaries() + "; auto: the first usable of " + order)
      ->check(one_of(choices))
      ->capture_default_str();
  run.add_option("--precision", o.precision, "Arithmetic and stored precision")
      ->check(one_of({"single", "double"}))
      ->capture_default_str();
  run.add_option("--samples", o.samples, "N: pupil samples across the diameter")
      ->transform(integer_in(2, max_samples))
      ->type_name("N")
      ->capture_default_str();
  run.add_option("--pad-factor", o.pad_factor,
                 "Q >= 1: padded size M = round(Q*N) (default 2); samples per lambda/D")
      ->transform(finite_number())
      ->type_name("Q");
  run.add_option("--padded-size", o.padded_size, "M >= N: padded FFT size (instead of Q)")
      ->transform(integer_in(2, max_padded_size))
      ->type_name("M");
  add_pupil_options(run, o.pupil);
  add_aperture_options(run, o.aperture);
  run.add_option("--vary", o.vary,
                 "Batch: one term stepped linearly, e.g. Z4,-1,1,21 (defocus through focus) or "
                 "S2_0,0,2,5")
      ->type_name("TERM,START,STOP,COUNT");
  run.add_option("--random", o.random,
                 "Batch: Zernike terms JMIN..JMAX (numbered as --zernike-order says) drawn from a "
                 "normal distribution with an expected RMS wavefront of RMS waves, reproducible "
                 "from SEED, e.g. 4-15,0.05,1000,1")
      ->type_name("JMIN-JMAX,RMS,COUNT,SEED");
  run.add_option("--frames", o.frames,
                 "Batch: CSV table, a header naming the terms (Z4,S2_1,...) and one row per frame")
      ->type_name("FILE");
  run.add_option("--crop", o.crop,
                 "K: keep the central K x K of each frame (with a physical pixel scale: the "
                 "detector's K x K pixels, default 128)")
      ->transform(integer_in(1, max_padded_size))
      ->type_name("K");
  add_optics_options(run, o.optics);
  add_metrics_options(run, o.metrics);
  run.add_option("--repeat", o.repeat, "Compute R times, recording the timings of each")
      ->transform(integer_in(1, max_repeat))
      ->type_name("R")
      ->capture_default_str();
  run.add_option("--chunk-frames", o.chunk_frames,
                 "Frames per compute call and per write (0: at most 16 MiB of output and 4096 frames)")
      ->transform(integer_in(0, max_chunk_frames))
      ->type_name("F")
      ->capture_default_str();
  run.add_option("--compression", o.compression,
                 "/psf compression: none, deflate[:LEVEL] (shuffle + deflate, any HDF5 reads it; "
                 "level 1-9, default 4), lz4 (Debian's hdf5-filter-plugin) or zstd[:LEVEL] (Blosc "
                 "with zstd, level 1-9, default 5; Debian's hdf5-filter-plugin-blosc-serial); "
                 "readers of lz4 and zstd files need the same plugin")
      ->type_name("NAME[:LEVEL]")
      ->capture_default_str();
  run.add_flag("--quiet", o.quiet, "No progress bar and no table: errors and warnings only");
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
  const Aberration terms = to_noll(s.fixed_terms, s.zernike);
  s.vary = o.vary;
  s.random = o.random;
  s.frames_file = o.frames;
  validate(s);  // before expanding: it checks that at most one batch source is given
  if (!o.vary.empty()) s.frames = expand(terms, parse_vary(o.vary, s.zernike));
  else if (!o.random.empty()) {
    // Drawn as the run reaches them: a million frames' terms are not held.
    s.drawn = RandomAberrations{terms, parse_random(o.random, s.zernike.order)};
    s.frames.clear();
  }
  else if (!o.frames.empty()) s.frames = read_frames_csv(terms, o.frames, s.zernike);
  else s.frames = {terms};
  apply(o.aperture, s);  // after the frames: a stack of maps makes the batch
  read_pupil_maps(s.aperture);  // their values, which the sampler takes from the spec
  return s;
}

}  // namespace psfsim::app

#include "run_options.hpp"

#include "psfsim/errors.hpp"
#include "psfsim/frame_sources.hpp"

namespace psfsim::app {

void add_run_options(CLI::App& run, RunOptions& o) {
  run.add_option("-o,--output", o.output, "HDF5 file to write (appears only when complete)")
      ->type_name("FILE");
  run.add_flag("--force", o.force, "Overwrite an existing output file");
  run.add_option("--backend", o.backend, "cpu, cuda, or auto (cuda when a usable GPU exists)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();
  run.add_option("--precision", o.precision, "Arithmetic and stored precision")
      ->check(CLI::IsMember({"single", "double"}))
      ->capture_default_str();
  run.add_option("--samples", o.samples, "N: pupil samples across the diameter")
      ->type_name("N")
      ->capture_default_str();
  run.add_option("--pad-factor", o.pad_factor,
                 "Q >= 1: padded size M = round(Q*N) (default 2); samples per lambda/D")
      ->type_name("Q");
  run.add_option("--padded-size", o.padded_size, "M >= N: padded FFT size (instead of Q)")
      ->type_name("M");
  run.add_option("--grid", o.grid,
                 "centered: x_i = (i - N/2)*2/N; linspace: numpy.linspace(-1, 1, N)")
      ->check(CLI::IsMember({"centered", "linspace"}))
      ->capture_default_str();
  run.add_option("--seidel", o.seidel,
                 "l,m,W: W waves of rho^l cos^m(phi), e.g. 2,1,1.0 or 4,0,0.25 (repeatable)")
      ->type_name("l,m,W");
  run.add_option("--zernike", o.zernike,
                 "j,c: c waves RMS of Noll Zernike j >= 1, e.g. 4,0.1 (repeatable)")
      ->type_name("j,c");
  run.add_option("--vary", o.vary,
                 "Batch: one term stepped linearly, e.g. Z4,-1,1,21 (defocus through focus) or "
                 "S2_0,0,2,5")
      ->type_name("TERM,START,STOP,COUNT");
  run.add_option("--random", o.random,
                 "Batch: Noll terms JMIN..JMAX drawn from a normal distribution with an expected "
                 "RMS wavefront of RMS waves, reproducible from SEED, e.g. 4-15,0.05,1000,1")
      ->type_name("JMIN-JMAX,RMS,COUNT,SEED");
  run.add_option("--frames", o.frames,
                 "Batch: CSV table, a header naming the terms (Z4,S2_1,...) and one row per frame")
      ->type_name("FILE");
  run.add_option("--obscuration", o.obscuration, "Central obscuration ratio in [0, 1)")
      ->type_name("E")
      ->capture_default_str();
  run.add_option("--normalize", o.normalize,
                 "none: |E|^2; peak: divide by (sum A)^2, the centre is the Strehl ratio; "
                 "sum: each frame sums to 1")
      ->check(CLI::IsMember({"none", "peak", "sum"}))
      ->capture_default_str();
  run.add_option("--crop", o.crop, "Keep the central K x K of each frame")->type_name("K");
  run.add_option("--repeat", o.repeat, "Compute R times, recording the timings of each")
      ->type_name("R")
      ->capture_default_str();
  run.add_option("--threads", o.threads, "CPU threads (0: all cores)")
      ->type_name("T")
      ->capture_default_str();
  run.add_option("--device", o.device, "GPU index for the cuda backend")
      ->type_name("D")
      ->capture_default_str();
  run.add_option("--fft-effort", o.fft_effort,
                 "CPU: FFTW planning effort; patient finds faster plans (at N = 128 about a "
                 "third less FFT time) but plans for seconds: pair it with --wisdom")
      ->check(CLI::IsMember({"estimate", "measure", "patient", "exhaustive"}))
      ->capture_default_str();
  run.add_option("--wisdom", o.wisdom,
                 "FFTW wisdom file: read before planning, updated after (CPU backend)")
      ->type_name("FILE");
  run.add_option("--chunk-frames", o.chunk_frames,
                 "Frames per compute call and per write (0: at most 64 MiB of output and 4096 frames)")
      ->type_name("F")
      ->capture_default_str();
  run.add_flag("--stage-timing", o.stage_timing,
               "GPU: time each stage separately even for small sizes, where the events cost "
               "as much as the stages (default: small runs report one fused stage)");
  run.add_flag("--quiet", o.quiet, "No progress bar");
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
  s.grid = *parse_grid(o.grid);
  s.normalization = *parse_normalization(o.normalize);
  s.obscuration = o.obscuration;
  s.crop = o.crop;
  s.repeat = o.repeat;
  s.threads = o.threads;
  s.device = o.device;
  s.quiet = o.quiet;
  s.wisdom = o.wisdom;
  s.chunk_frames = o.chunk_frames;
  s.stage_timing = o.stage_timing;
  s.fft_effort = *parse_fft_effort(o.fft_effort);
  PhaseTerms terms;
  for (const auto& t : o.seidel) terms.seidel.push_back(parse_seidel(t, "--seidel"));
  for (const auto& t : o.zernike) terms.zernike.push_back(parse_zernike(t, "--zernike"));
  s.fixed_terms = terms;
  s.vary = o.vary;
  s.random = o.random;
  s.frames_file = o.frames;
  validate(s);  // before expanding: it checks that at most one batch source is given
  if (!o.vary.empty()) s.frames = expand(terms, parse_vary(o.vary));
  else if (!o.random.empty()) s.frames = expand(terms, parse_random(o.random));
  else if (!o.frames.empty()) s.frames = read_frames_csv(terms, o.frames);
  else s.frames = {terms};
  return s;
}

}  // namespace psfsim::app

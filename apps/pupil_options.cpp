#include "pupil_options.hpp"

#include <limits>

#include "option_checks.hpp"

namespace psfsim::app {

void add_pupil_options(CLI::App& c, PupilOptions& o) {
  c.add_option("--grid", o.grid, "centered: x_i = (i - N/2)*2/N; linspace: numpy.linspace(-1, 1, N)")
      ->check(one_of({"centered", "linspace"}))
      ->capture_default_str();
  c.add_option("--seidel", o.seidel,
               "l,m,W: W waves of rho^l cos^m(phi), e.g. 2,1,1.0 or 4,0,0.25 (repeatable)")
      ->type_name("l,m,W");
  c.add_option("--zernike", o.zernike,
               "j,c: c waves of Zernike j, e.g. 4,0.1 (repeatable); by default j is Noll's "
               "(j >= 1) and c the term's RMS: see --zernike-order and --zernike-norm")
      ->type_name("j,c");
  c.add_option("--zernike-order", o.zernike_order,
               "How --zernike, --vary, --random and --frames number Zernikes: noll (Noll 1976, "
               "from 1), ansi (ANSI Z80.28/OSA j = (n(n+2)+m)/2, from 0) or fringe (University "
               "of Arizona/Zemax Fringe, 1-37)")
      ->check(one_of({"noll", "ansi", "fringe"}))
      ->capture_default_str();
  c.add_option("--zernike-norm", o.zernike_norm,
               "rms: c is the term's RMS over the pupil (Noll's orthonormal terms); unit: the "
               "radial part is 1 at the rim, no sqrt(n+1) factor (default: rms for noll and "
               "ansi, unit for fringe)")
      ->check(one_of({"rms", "unit"}));
  c.add_option("--obscuration", o.obscuration, "Central obscuration ratio in [0, 1)")
      ->transform(finite_number())
      ->type_name("E")
      ->capture_default_str();
  c.add_option("--normalize", o.normalize,
               "none: |E|^2; peak: divide by (sum A)^2, the centre is the Strehl ratio; "
               "sum: each frame sums to 1")
      ->check(one_of({"none", "peak", "sum"}))
      ->capture_default_str();
  c.add_option("--threads", o.threads,
               "CPU threads (0: psfsim chooses among the cores this process may use, its "
               "affinity: for a batch all of them, a frame each; for one PSF one thread up to "
               "a size that falls with the cores (M = 1024 on 2 cores, 256 on 16), all from "
               "there)")
      ->transform(integer_in(0, max_threads))
      ->type_name("T")
      ->capture_default_str();
  c.add_option("--device", o.device, "GPU index for the cuda backend")
      ->transform(integer_in(0, std::numeric_limits<int>::max()))
      ->type_name("D")
      ->capture_default_str();
  c.add_option("--fft-effort", o.fft_effort,
               "CPU: FFTW planning effort; auto (the default): measure where the run's frames "
               "times repeats pay for the planning, else estimate (always estimate with "
               "--wisdom none, so that reruns without wisdom plan alike); patient finds faster "
               "plans but plans for seconds, once: the wisdom file keeps its plans")
      ->check(one_of({"auto", "estimate", "measure", "patient", "exhaustive"}));
  c.add_option("--wisdom", o.wisdom,
               "FFTW wisdom file, read before planning and updated after a measured plan (CPU "
               "backend); default: the "
               "per-user cache $XDG_CACHE_HOME/psfsim/fftw-wisdom (else ~/.cache/psfsim/), "
               "which makes reruns bit-identical; none: no wisdom")
      ->type_name("FILE");
  c.add_flag("--stage-timing", o.stage_timing,
             "GPU: time each stage separately even for small sizes, where the events cost as "
             "much as the stages (default: small runs report one fused stage)");
}

ZernikeConvention zernike_convention(const PupilOptions& o) {
  // CLI11 checks both against their lists, from the command line and config files alike.
  const ZernikeOrdering order = *parse_zernike_ordering(o.zernike_order);
  return {order, o.zernike_norm.empty() ? default_norm(order) : *parse_zernike_norm(o.zernike_norm)};
}

Aberration parse_terms(const PupilOptions& o) {
  const ZernikeOrdering order = zernike_convention(o).order;
  Aberration terms;
  for (const auto& t : o.seidel) terms.seidel.push_back(parse_seidel(t, "--seidel"));
  for (const auto& t : o.zernike) terms.zernike.push_back(parse_zernike(t, "--zernike", order));
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

#include "sweep_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"
#include "psfsim/output_path.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/run_spec.hpp"
#include "psfsim/sweep_file_writer.hpp"
#include "psfsim/timing_log.hpp"
#include "run_command.hpp"

namespace psfsim::app {
namespace {

constexpr double not_a_stage = std::numeric_limits<double>::quiet_NaN();

// Untimed calls before the measured ones: plan upload, caches, page faults, GPU clocks.
constexpr int warmup_calls = 3;

double stage_median(const TimingLog& log, const std::string& name) {
  for (std::size_t s = 0; s < log.stages.size(); ++s)
    if (log.stages[s] == name) return median(log.seconds[s]);
  return not_a_stage;
}

void print_header() {
#define PSFSIM_SWEEP_HEADER \
  "%-6s %-6s %-4s %-7s %6s %6s %6s %6s | %10s %10s %10s %10s | %10s %10s %10s | %12s\n"
  std::printf(PSFSIM_SWEEP_HEADER, "backend", "prec", "prop", "store", "N", "M", "B", "K", "pupil",
              "fft|mft", "intensity", "transfer", "total", "min", "max", "PSFs/s");
  std::printf(PSFSIM_SWEEP_HEADER, "", "", "", "", "", "", "", "", "[us]", "[us]", "[us]", "[us]",
              "[us]", "[us]", "[us]", "");
#undef PSFSIM_SWEEP_HEADER
}

void print_row(const SweepRow& r) {
  const auto us = [](double seconds) {
    if (std::isnan(seconds)) return std::string("-");
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", seconds * 1e6);
    return std::string(text);
  };
  std::printf(
      "%-7s %-6s %-4s %-7s %6d %6d %6d %6d | %10s %10s %10s %10s | %10s %10s %10s | %12.0f\n",
      r.backend.c_str(), r.precision.c_str(), r.propagation.c_str(), r.store.c_str(), r.samples,
      r.padded_size, r.batch, r.crop, us(r.pupil).c_str(),
      us(std::isnan(r.fft) ? r.mft : r.fft).c_str(), us(r.intensity).c_str(),
      us(r.transfer).c_str(), us(r.total_median).c_str(), us(r.total_min).c_str(),
      us(r.total_max).c_str(), r.psfs_per_second);
  std::fflush(stdout);
}

}  // namespace

void execute_sweep(const SweepOptions& o, const std::string& command_line,
                   const std::vector<std::string>& config_files) {
  // Validate everything through the run rules before timing anything.
  if (o.sizes.empty() || o.batch.empty() || o.precisions.empty())
    throw InputError(flag(Option::sizes) + ", " + flag(Option::batch) + ", " +
                     flag(Option::precisions) + ": each needs at least one value");
  check_bounds(Option::sweep_repeat, o.repeat);
  for (int b : o.batch) check_bounds(Option::batch, b);
  for (int k : o.crops) check_bounds(Option::sweep_crop, k);
  if (o.propagations.empty())
    throw InputError(flag(Option::sweep_propagation) + ": needs at least one value");
  Aberration terms = to_noll(parse_terms(o.pupil), zernike_convention(o.pupil));
  if (terms.seidel.empty() && terms.zernike.empty()) terms.seidel.push_back({2, 1, 1.0});
  // One spec per (N, K, propagation); fft rows whose K exceeds M are left out.
  std::vector<RunSpec> specs;
  const std::vector<std::optional<int>> crops =
      o.crops.empty() ? std::vector<std::optional<int>>{std::nullopt}
                      : std::vector<std::optional<int>>(o.crops.begin(), o.crops.end());
  for (int n : o.sizes) check_bounds(Option::sizes, n);
  for (int n : o.sizes)
    for (const auto& crop : crops)
      for (const auto& propagation : o.propagations) {
        RunSpec s;
        s.samples = n;
        s.pad_factor = o.pad_factor;
        apply(o.pupil, s);
        s.output = o.output;
        s.frames = {terms};
        s.optics.propagation = *parse_propagation(propagation);
        const int m = geometry(s).padded;
        if (crop && *crop > m && s.optics.propagation != Propagation::mft) continue;
        s.crop = crop;
        apply(o.metrics, s);  // after the shape: `all` depends on it
        validate(s);
        (void)make_plan(s, 1);  // refuses an aperture without samples
        specs.push_back(s);
      }
  if (specs.empty())
    throw InputError(flag(Option::sweep_crop) + ": every K exceeds every padded size M");
  check_output_path(o.output, o.force, flag(Option::sweep_output),
                    run_inputs(specs.front(), config_files));

  std::vector<std::string> backends = o.backends;
  if (backends.empty()) backends = builtin_backends().names();
  std::vector<SweepRow> rows;
  // --backends takes the registry's names only; one not in this build says so itself. An
  // unusable backend is skipped with a notice; none usable is the runtime failure it is.
  std::vector<std::string> usable;
  std::vector<std::string> skipped;  // "NAME: why"
  for (const auto& name : backends) {
    const std::string why = builtin_backends().find(name)->unusable_reason();
    if (why.empty()) usable.push_back(name);
    else skipped.push_back(name + ": " + why);
  }
  if (usable.empty()) {
    std::string reasons;
    for (const auto& s : skipped) reasons += (reasons.empty() ? "" : "; ") + s;
    throw RuntimeFailure("sweep: no backend of " + flag(Option::backends) + " is usable here (" +
                         reasons + ")");
  }
  // A backend the user named and cannot have is a warning; one of the default list a note,
  // which --quiet (errors and warnings only, docs/cli.md) leaves out.
  if (!o.quiet || !o.backends.empty())
    for (const std::string& s : skipped)
      std::fprintf(stderr, "psfsim: sweep: skipping backend %s\n", s.c_str());
  if (!o.quiet) print_header();
  for (const auto& name : usable) {
    for (const auto& precision_name : o.precisions)
      for (RunSpec spec : specs)
        for (int b : o.batch) {
          spec.precision = *parse_precision(precision_name);
          // Real, distinct frames (docs/spec.md §5: each frame of a batch a different defocus),
          // computed B at a time, R timed repeats after the warm-up.
          spec.frames = b == 1 ? std::vector<Aberration>{terms}
                               : expand(terms, VarySpec{TermId{true, 4, 0, 0}, -0.5, 0.5, b});
          spec.chunk_frames = b;
          spec.repeat = o.repeat;
          spec.backend = name;
          std::unique_ptr<PsfRun> run;
          try {
            run = std::make_unique<PsfRun>(spec, builtin_backends());
          } catch (const InputError& e) {  // too large for this machine: report, go on
            std::fprintf(stderr, "psfsim: sweep: skipping %s %s N=%d B=%d: %s\n", name.c_str(),
                         precision_name.c_str(), spec.samples, b, e.what());
            continue;
          }
          run->warm_up(warmup_calls);
          DiscardSink discard;
          const TimingLog log = run->execute(discard);
          const Geometry& g = run->geometry();
          SweepRow row;
          row.backend = name;
          row.precision = precision_name;
          row.propagation = std::string(to_string(g.propagation));
          row.store = std::string(to_string(spec.metrics.resolved_store()));
          row.samples = g.samples;
          row.padded_size = g.padded;
          row.batch = b;
          row.crop = g.frame;
          row.repeats = o.repeat;
          row.pupil = stage_median(log, "pupil");
          row.fft = stage_median(log, "fft");
          row.mft = stage_median(log, "mft");
          row.intensity = stage_median(log, "intensity");
          row.metrics = stage_median(log, "metrics");
          row.transfer = stage_median(log, "transfer");
          row.fused = not_a_stage;
          for (std::size_t s = 0; s < log.stages.size(); ++s)
            if (log.stages[s].find('+') != std::string::npos) {  // several stages timed as one
              row.fused_stages = log.stages[s];
              row.fused = median(log.seconds[s]);
            }
          row.total_median = median(log.total);
          row.total_min = *std::min_element(log.total.begin(), log.total.end());
          row.total_max = *std::max_element(log.total.begin(), log.total.end());
          row.psfs_per_second = b / row.total_median;
          rows.push_back(row);
          if (!o.quiet) print_row(row);
        }
  }
  write_sweep_file(o.output, o.force, rows, command_line, to_toml(o, backends));
  if (!o.quiet) std::printf("psfsim: wrote %s: %zu rows\n", o.output.c_str(), rows.size());
}

}  // namespace psfsim::app

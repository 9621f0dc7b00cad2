#include "run_command.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "progress_bar.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/psf_file_writer.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/rank_files.hpp"

namespace psfsim::app {
namespace {

void print_summary(const PsfRun& run, const TimingLog& log) {
  if (!run.backend_choice().empty()) std::printf("psfsim: %s\n", run.backend_choice().c_str());
  const RunSpec& spec = run.spec();
  const Geometry& g = run.geometry();
  if (spec.metrics.stores_frames())
    std::printf("psfsim: wrote %s: %zu x %d x %d %s%s (backend %s, %s)\n", spec.output.c_str(),
                batch_size(spec), g.frame, g.frame,
                spec.precision == Precision::single ? "float32" : "float64",
                spec.metrics.stores_metrics() ? " and their metrics" : "", log.backend.c_str(),
                log.device.c_str());
  else
    std::printf("psfsim: wrote %s: the metrics of %zu frames, no frames (backend %s, %s)\n",
                spec.output.c_str(), batch_size(spec), log.backend.c_str(), log.device.c_str());
  std::printf("%-18s %12s %12s %12s   (%zu repeat%s, %zu frame%s each)\n", "stage", "median [us]",
              "min [us]", "max [us]", log.repeats(), log.repeats() == 1 ? "" : "s",
              batch_size(spec), batch_size(spec) == 1 ? "" : "s");
  const auto row = [](const std::string& name, const std::vector<double>& v) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    std::printf("%-18s %12.2f %12.2f %12.2f\n", name.c_str(), median(v) * 1e6, *lo * 1e6,
                *hi * 1e6);
  };
  for (std::size_t s = 0; s < log.stages.size(); ++s) row(log.stages[s], log.seconds[s]);
  row("total", log.total);
  std::printf("%-18s %12.2f\n", "plan", log.plan * 1e6);
  std::printf("%-18s %12.2f\n", "write", log.write * 1e6);
  if (batch_size(spec) > 1)
    std::printf("%-18s %12.0f\n", "PSFs/s (median)", batch_size(spec) / median(log.total));
}

}  // namespace

std::future<void> prepare_device(const std::string& backend, int device) {
  // Only a backend named, never auto: a small run there may go to the host, which the
  // start-up would slow down.
  const BackendEntry* entry = builtin_backends().find(backend);
  if (entry == nullptr || !entry->compiled || !entry->prepare || entry->start_up_seconds <= 0.0)
    return {};
  return std::async(std::launch::async, [prepare = entry->prepare, device] { prepare(device); });
}

std::vector<InputFile> run_inputs(const RunSpec& spec,
                                  const std::vector<std::string>& config_files) {
  std::vector<InputFile> inputs;
  for (const std::string& config : config_files) inputs.push_back({"--config", config});
  // A map is FILE or FILE:DATASET (pupil_maps.cpp): either may name the file.
  const auto map = [&](const char* option, const std::string& text) {
    if (text.empty()) return;
    inputs.push_back({option, text});
    if (const auto colon = text.rfind(':'); colon != std::string::npos && colon > 0)
      inputs.push_back({option, text.substr(0, colon)});
  };
  map("--pupil-amplitude", spec.aperture.amplitude);
  map("--pupil-opd", spec.aperture.opd);
  if (!spec.frames_file.empty()) inputs.push_back({"--frames", spec.frames_file});
  if (!spec.field.table_file.empty()) inputs.push_back({"--field-table", spec.field.table_file});
  if (spec.wisdom.empty()) inputs.push_back({"the FFTW wisdom cache", wisdom_cache_path()});
  else if (spec.wisdom != "none") inputs.push_back({"--wisdom", spec.wisdom});
  return inputs;
}

std::unique_ptr<PsfRun> write_run_file(RunSpec spec, const std::string& command_line,
                                       const std::vector<std::string>& config_files,
                                       bool show_progress, const PsfRun::Progress& after_chunk,
                                       TimingLog& log) {
  // The path first: nothing is planned or computed for a file that cannot be written.
  PsfFileWriter file(spec.output, spec.force, command_line, run_inputs(spec, config_files));
  const std::size_t total = batch_size(spec) * static_cast<std::size_t>(spec.repeat);
  auto run = std::make_unique<PsfRun>(std::move(spec), builtin_backends());
  ProgressBar progress(total, show_progress);
  log = run->execute(file, [&](std::size_t done, std::size_t all) {
    progress.update(done);
    if (after_chunk) after_chunk(done, all);
  });
  progress.finish();
  remove_other_rank_files(run->spec().output, 0);  // an earlier mpirun's, now replaced
  return run;
}

void execute_run(RunSpec spec, const std::string& command_line,
                 const std::vector<std::string>& config_files) {
  const bool quiet = spec.quiet;
  TimingLog log;
  // A batch can hold millions of frames: the run is not copied, and not destroyed (below).
  auto run = write_run_file(std::move(spec), command_line, config_files, !quiet, {}, log);
  if (!quiet) print_summary(*run, log);  // --quiet: errors and warnings only (docs/cli.md)
  // The file is committed and main() ends the process next: a million frames' terms and the
  // device's buffers are the kernel's to free, which spares the exit their destructors
  // (bench/results/2026-12-01-metrics-end-to-end.md).
  (void)run.release();
}

}  // namespace psfsim::app

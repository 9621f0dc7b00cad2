#include "run_command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "psfsim/backend_registry.hpp"
#include "psfsim/config_text.hpp"
#include "psfsim/phase_polynomial.hpp"
#include "psfsim/psf_file_writer.hpp"

namespace psfsim::app {
namespace {

void print_summary(const RunSpec& spec, const Geometry& g, const TimingLog& log) {
  std::printf("psfsim: wrote %s: %zu x %d x %d %s (backend %s, %s)\n", spec.output.c_str(),
              spec.frames.size(), g.frame, g.frame,
              spec.precision == Precision::single ? "float32" : "float64", log.backend.c_str(),
              log.device.c_str());
  std::printf("%-18s %12s %12s %12s   (%zu repeat%s)\n", "stage", "median [us]", "min [us]",
              "max [us]", log.repeats(), log.repeats() == 1 ? "" : "s");
  const auto row = [](const std::string& name, const std::vector<double>& v) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    std::printf("%-18s %12.2f %12.2f %12.2f\n", name.c_str(), median(v) * 1e6, *lo * 1e6,
                *hi * 1e6);
  };
  for (std::size_t s = 0; s < log.stages.size(); ++s) row(log.stages[s], log.seconds[s]);
  row("total", log.total);
  std::printf("%-18s %12.2f\n", "write", log.write * 1e6);
}

}  // namespace

void execute_run(const RunSpec& spec, const std::string& command_line) {
  check_output_path(spec.output, spec.force);
  const BackendEntry& entry = builtin_backends().resolve(spec.backend);

  const int batch = static_cast<int>(spec.frames.size());
  int degree = 0;
  for (const auto& f : spec.frames) degree = std::max(degree, required_degree(f));
  std::vector<PhasePolynomial> phases;
  phases.reserve(spec.frames.size());
  for (const auto& f : spec.frames) phases.push_back(compile_phase(f, degree));

  const std::unique_ptr<Backend> backend = entry.create(make_plan(spec, batch));
  TimingLog log;
  log.backend = backend->name();
  log.device = backend->device_name();
  log.precision = std::string(to_string(spec.precision));
  log.threads = spec.threads > 0 ? spec.threads
                                 : static_cast<int>(std::thread::hardware_concurrency());
  log.fused = backend->fused_stages();

  FrameBlock block;
  for (int r = 0; r < spec.repeat; ++r) {
    block = backend->compute(phases);
    log.record(block.times, true);
  }

  const Geometry g = geometry(spec);
  PsfFileLayout layout;
  layout.geometry = g;
  layout.frames = spec.frames.size();
  layout.precision = spec.precision;
  layout.grid = spec.grid;
  layout.normalization = spec.normalization;
  layout.obscuration = spec.obscuration;
  layout.backend = backend->name();
  layout.command_line = command_line;
  layout.config_toml = to_toml(spec);

  const auto write_start = std::chrono::steady_clock::now();
  PsfFileWriter writer(spec.output, layout);
  writer.write_frames(0, block.frames, block.data);
  writer.write_parameters(spec.frames);
  log.write = std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count();
  writer.write_timings(log);
  writer.commit();
  print_summary(spec, g, log);
}

}  // namespace psfsim::app

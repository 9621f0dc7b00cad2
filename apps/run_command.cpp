#include "run_command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <thread>

#include "progress_bar.hpp"
#include "psfsim/backend_registry.hpp"
#include "psfsim/config_text.hpp"
#include "psfsim/phase_polynomial.hpp"
#include "psfsim/psf_file_writer.hpp"

namespace psfsim::app {
namespace {

using Clock = std::chrono::steady_clock;

// Frames per compute() call: at most 64 MiB of output and 4096 frames, so that memory stays
// bounded for any B and the progress line moves, while each call is still large enough to
// keep a GPU busy (1024 frames of 256 x 256 already run at the copy engine's speed).
int chunk_frames(std::size_t batch, std::size_t frame_bytes) {
  constexpr std::size_t target_bytes = std::size_t{64} << 20;
  constexpr std::size_t max_frames = 4096;
  const std::size_t by_memory = std::max<std::size_t>(1, target_bytes / frame_bytes);
  return static_cast<int>(std::min({batch, by_memory, max_frames}));
}

int table_degree(const std::vector<PhaseTerms>& frames) {
  int degree = 0;
  for (const auto& f : frames) degree = std::max(degree, required_degree(f));
  return degree;
}

void print_summary(const RunSpec& spec, const Geometry& g, const TimingLog& log) {
  std::printf("psfsim: wrote %s: %zu x %d x %d %s (backend %s, %s)\n", spec.output.c_str(),
              spec.frames.size(), g.frame, g.frame,
              spec.precision == Precision::single ? "float32" : "float64", log.backend.c_str(),
              log.device.c_str());
  std::printf("%-18s %12s %12s %12s   (%zu repeat%s, %zu frame%s each)\n", "stage",
              "median [us]", "min [us]", "max [us]", log.repeats(), log.repeats() == 1 ? "" : "s",
              spec.frames.size(), spec.frames.size() == 1 ? "" : "s");
  const auto row = [](const std::string& name, const std::vector<double>& v) {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    std::printf("%-18s %12.2f %12.2f %12.2f\n", name.c_str(), median(v) * 1e6, *lo * 1e6,
                *hi * 1e6);
  };
  for (std::size_t s = 0; s < log.stages.size(); ++s) row(log.stages[s], log.seconds[s]);
  row("total", log.total);
  std::printf("%-18s %12.2f\n", "write", log.write * 1e6);
  if (spec.frames.size() > 1)
    std::printf("%-18s %12.0f\n", "PSFs/s (median)", spec.frames.size() / median(log.total));
}

}  // namespace

void execute_run(const RunSpec& spec, const std::string& command_line) {
  check_output_path(spec.output, spec.force);
  const BackendEntry& entry = builtin_backends().resolve(spec.backend);
  const Geometry g = geometry(spec);
  const std::size_t batch = spec.frames.size();
  const int degree = table_degree(spec.frames);
  PsfPlan plan = make_plan(spec, 1);
  plan.max_batch = spec.chunk_frames > 0
                       ? static_cast<int>(std::min<std::size_t>(batch, spec.chunk_frames))
                       : chunk_frames(batch, plan.frame_bytes());
  const std::unique_ptr<Backend> backend = entry.create(plan);

  TimingLog log;
  log.backend = backend->name();
  log.device = backend->device_name();
  log.precision = std::string(to_string(spec.precision));
  log.threads = spec.threads > 0 ? spec.threads
                                 : static_cast<int>(std::thread::hardware_concurrency());
  log.fused = backend->fused_stages();

  PsfFileLayout layout;
  layout.geometry = g;
  layout.frames = batch;
  layout.precision = spec.precision;
  layout.grid = spec.grid;
  layout.normalization = spec.normalization;
  layout.obscuration = spec.obscuration;
  layout.backend = backend->name();
  layout.command_line = command_line;
  layout.config_toml = to_toml(spec);
  PsfFileWriter writer(spec.output, layout);

  // The last repeat streams its chunks to the file: chunk i is written on another thread
  // while chunk i+1 is computed (a block stays valid until the second following compute()).
  ProgressBar progress(batch * spec.repeat, !spec.quiet);
  std::vector<PhasePolynomial> phases;
  std::future<void> pending_write;
  double write_seconds = 0.0;
  std::size_t done = 0;
  for (int r = 0; r < spec.repeat; ++r) {
    const bool last_repeat = r + 1 == spec.repeat;
    for (std::size_t first = 0; first < batch; first += plan.max_batch) {
      const std::size_t count = std::min<std::size_t>(plan.max_batch, batch - first);
      phases.clear();
      for (std::size_t f = first; f < first + count; ++f)
        phases.push_back(compile_phase(spec.frames[f], degree));
      const FrameBlock block = backend->compute(phases);
      log.record(block.times, first == 0);
      if (last_repeat) {
        if (pending_write.valid()) pending_write.get();
        pending_write = std::async(std::launch::async, [&writer, &write_seconds, first, block] {
          const auto t0 = Clock::now();
          writer.write_frames(first, block.frames, block.data);
          write_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
        });
      }
      done += count;
      progress.update(done);
    }
  }
  if (pending_write.valid()) pending_write.get();
  progress.finish();

  const auto t0 = Clock::now();
  writer.write_parameters(spec.frames);
  log.write = write_seconds + std::chrono::duration<double>(Clock::now() - t0).count();
  writer.write_timings(log);
  writer.commit();
  print_summary(spec, g, log);
}

}  // namespace psfsim::app

#include "mpi_run_command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "commands/progress_bar.hpp"
#include "commands/run_command.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/effective_config.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/host_cores.hpp"
#include "psfsim/output_path.hpp"
#include "psfsim/partial_file.hpp"
#include "psfsim/psf_file_writer.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/rank_files.hpp"
#include "psfsim/virtual_join.hpp"
#include "rank_agreement.hpp"
#include "rank_resources.hpp"

namespace psfsim::app {
namespace fs = std::filesystem;
namespace {

// This rank's share of the user's run: its block of frames, its file, its cores or its GPU.
int rank_device(const std::string& backend, int device, const MpiWorld& world) {
  // A host backend has no device to share; auto may take a GPU, so it gets one.
  const BackendEntry* entry = builtin_backends().find(backend);
  if (entry != nullptr && entry->site == ComputeSite::host) return device;
  const int gpus = visible_gpus();
  return gpus > 0 ? world.local_rank() % gpus : device;
}

// `user` is only borrowed: its frames (a million, maybe) are not copied whole.
RunSpec rank_spec(RunSpec& user, const MpiWorld& world) {
  const int ranks = world.size();
  const std::size_t batch = batch_size(user);
  if (batch < static_cast<std::size_t>(ranks))
    throw InputError("mpirun -n " + std::to_string(ranks) + ": the batch has " +
                     std::to_string(batch) + " frame(s); start at most that many ranks");
  std::vector<Aberration> all;
  all.swap(user.frames);
  RunSpec spec = user;
  user.frames.swap(all);
  const FrameRange block = rank_frames(batch, world.rank(), ranks);
  if (spec.drawn) {  // the rank draws its block alone, from block_first on in the stream
    spec.drawn->random.count = static_cast<int>(block.count);
  } else {
    const auto first = user.frames.begin() + static_cast<std::ptrdiff_t>(block.first);
    spec.frames.assign(first, first + static_cast<std::ptrdiff_t>(block.count));
  }
  spec.block_first = block.first;
  spec.whole_batch = batch;
  spec.output = rank_file_path(user.output, world.rank(), ranks);
  if (spec.threads == 0)
    spec.threads = rank_threads(host_cores(), usable_cores(), world.local_size());
  spec.device = rank_device(spec.backend, spec.device, world);
  spec.quiet = spec.quiet || world.rank() != 0;  // one progress line: rank 0's block
  return spec;
}

// Where a rank's frames go. They are computed into `staged`, a partial name of the job (rank
// 0's host and PID, so that a later run removes it once the job is gone, as any partial),
// put into place as `final` only after every rank has finished and rank 0 has written the
// output (under a partial name too): a job that fails before that leaves an earlier output
// and its rank files as they were.
struct RankPaths {
  fs::path final;
  fs::path staged;
};

RankPaths rank_paths(const fs::path& output, int rank, int ranks, const std::string& job) {
  const fs::path final = rank_file_path(output, rank, ranks);
  return {final, final.parent_path() / partial_file_name(final.filename().native(), job)};
}

// Everything a rank sets up before computing: what fails here is the input or the machine,
// found by every rank before any work.
struct RankWork {
  RunSpec user;
  std::string job;  // HOST-PID of rank 0 (process_tag)
  RankPaths paths;
  std::unique_ptr<PsfFileWriter> file;
  std::unique_ptr<PsfRun> run;
};

// No collective call in here: a rank that throws must not leave the others waiting.
RankWork prepare(const RunOptions& options, const std::string& command_line,
                 const std::vector<std::string>& config_files, const MpiWorld& world,
                 const std::string& job) {
  // The rank's GPU starts while the frames are defined (as for one process).
  const auto device_ready =
      prepare_device(options.backend, rank_device(options.backend, options.pupil.device, world));
  RankWork work{to_run_spec(options), job, {}, nullptr, nullptr};
  const fs::path output = work.user.output;
  if (world.rank() == 0)
    check_output_path(output, work.user.force, "--output", run_inputs(work.user, config_files));
  RunSpec spec = rank_spec(work.user, world);
  work.paths = rank_paths(output, world.rank(), world.size(), work.job);
  check_output_path(work.paths.final, spec.force);  // an earlier run's, without --force
  spec.output = work.paths.staged;
  work.file = std::make_unique<PsfFileWriter>(spec.output, true, command_line);
  work.run = std::make_unique<PsfRun>(std::move(spec), builtin_backends());
  (void)work.run->backend();  // an unusable backend or device stops the job here
  return work;
}

std::vector<PartFile> part_files(const RankWork& work, int ranks) {
  std::vector<PartFile> parts;
  for (int r = 0; r < ranks; ++r) {
    const RankPaths paths = rank_paths(work.user.output, r, ranks, work.job);
    parts.push_back({paths.staged, rank_frames(batch_size(work.user), r, ranks).count,
                     paths.final.filename().string()});
  }
  return parts;
}

void print_summary(const RunSpec& user, const PsfRun& run, const TimingLog& log, int ranks,
                   const std::vector<double>& totals, const std::vector<double>& threads,
                   double join_seconds) {
  const Geometry& g = run.geometry();
  char what[96];
  if (user.metrics.stores_frames())
    std::snprintf(what, sizeof what, "%zu x %d x %d %s%s", batch_size(user), g.frame, g.frame,
                  user.precision == Precision::single ? "float32" : "float64",
                  user.metrics.stores_metrics() ? " and their metrics" : "");
  else std::snprintf(what, sizeof what, "the metrics of %zu frames", batch_size(user));
  std::printf("psfsim: wrote %s: %s from %d ranks (backend %s), over %s ... %s\n",
              user.output.c_str(), what, ranks, log.backend.c_str(),
              rank_file_path(user.output, 0, ranks).filename().c_str(),
              rank_file_path(user.output, ranks - 1, ranks).filename().c_str());
  std::printf("(the rank files hold the %s: keep them beside %s)\n",
              user.metrics.stores_frames() ? "frames" : "metrics", user.output.filename().c_str());
  std::printf("%-6s %10s %8s %18s %14s\n", "rank", "frames", "threads", "total median [us]",
              "PSFs/s");
  for (int r = 0; r < ranks; ++r) {
    const std::size_t frames = rank_frames(batch_size(user), r, ranks).count;
    std::printf("%-6d %10zu %8.0f %18.2f %14.0f\n", r, frames, threads[r], totals[r] * 1e6,
                frames / totals[r]);
  }
  std::printf("%-6s %10s %8s %18s %14.0f\n", "all", "", "", "",
              batch_size(user) / *std::max_element(totals.begin(), totals.end()));
  std::printf("join (virtual datasets): %.2f ms\n", join_seconds * 1e3);
}

// Puts `file` into place; a failure names its target.
void put_in_place(PartialFile& file) {
  try {
    file.put_in_place();
  } catch (const RuntimeFailure& e) {
    throw RuntimeFailure(file.target().string() + ": " + e.what());
  }
}

// The job's steps on this rank, until another rank's failure stops it (RankStopped).
void run_on_ranks(const RunOptions& options, const std::string& command_line,
                  const std::vector<std::string>& config_files, MpiWorld& world) {
  const std::string job = world.broadcast(world.rank() == 0 ? process_tag() : std::string(), 0);
  RankWork work;
  agree(world,
        failure_of([&] { work = prepare(options, command_line, config_files, world, job); }));
  if (world.rank() == 0 && !work.user.quiet && work.run->backend_site() == ComputeSite::device)
    if (const std::string note = gpu_binding_note(host_cores(), usable_cores()); !note.empty())
      std::fprintf(stderr, "%s\n", note.c_str());

  // Guarded before the writer puts its partial in place as the staged file: a stop signal
  // from mpirun, when another rank fails, may come at any point after (the guard of a file
  // not yet made is harmless).
  std::optional<PartialFile> rank_file;
  agree(world, failure_of([&] {
          rank_file.emplace(work.paths.final, work.paths.staged.filename().native(),
                            work.user.force);
        }));
  TimingLog log;
  const std::optional<Error> failure = failure_of([&] {
    const RunSpec& spec = work.run->spec();
    ProgressBar progress(batch_size(spec) * static_cast<std::size_t>(spec.repeat), !spec.quiet);
    log = work.run->execute(*work.file, [&](std::size_t done, std::size_t) {
      world.throw_if_stopped();
      progress.update(done);
    });
    progress.finish();
  });
  if (failure) {
    work = RankWork{};  // the writer removes its partial file
    rank_file.reset();
    std::fprintf(stderr, "psfsim: error: %s\n", failure->what());
    std::fflush(stderr);
    world.stop_others(static_cast<int>(failure->code()));
    world.abort(static_cast<int>(failure->code()));
  }
  world.barrier();  // every rank's frames are complete

  // Rank 0 writes the output under a partial name, over the names the rank files will have.
  const fs::path output = work.user.output;
  const fs::path staged_output =
      output.parent_path() / partial_file_name(output.filename().native(), work.job);
  std::optional<PartialFile> joined;
  double join_seconds = 0.0;
  std::optional<Error> join_failure;
  if (world.rank() == 0) {
    const auto t0 = std::chrono::steady_clock::now();
    join_failure = failure_of([&] {
      joined.emplace(output, staged_output.filename().native(), work.user.force);
      join_part_files(staged_output, part_files(work, world.size()), command_line,
                      to_toml(work.user));
    });
    join_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  agree(world, join_failure);  // on failure every rank's staged file goes

  // Into place: the rank files, then the output; without --force never over a file that
  // appeared meanwhile. Until every rank keeps its file, a stop signal removes the output
  // too: never an output without its frames.
  agree(world, failure_of([&] { put_in_place(*rank_file); }));
  agree(world, failure_of([&] {
          if (world.rank() == 0) put_in_place(*joined);
        }));
  rank_file->keep();
  world.barrier();
  if (world.rank() == 0) {
    joined->keep();
    remove_other_rank_files(output, world.size());
  }
  const std::vector<double> totals = world.gather(median(log.total));
  const std::vector<double> threads = world.gather(log.threads);
  if (world.rank() == 0 && !work.user.quiet)
    print_summary(work.user, *work.run, log, world.size(), totals, threads, join_seconds);
}

}  // namespace

// Another rank failed: by the time RankStopped gets here, the unwinding has removed this
// rank's partial files, so it answers and waits for the abort.
void execute_run_on_ranks(const RunOptions& options, const std::string& command_line,
                          const std::vector<std::string>& config_files, MpiWorld& world) {
  try {
    run_on_ranks(options, command_line, config_files, world);
  } catch (const RankStopped& stop) {
    world.answer_stop(stop);
  }
}

}  // namespace psfsim::app

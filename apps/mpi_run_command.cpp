#include "mpi_run_command.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <new>
#include <optional>
#include <thread>
#include <vector>

#include "progress_bar.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/config_text.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/output_path.hpp"
#include "psfsim/psf_file_writer.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/rank_files.hpp"
#include "psfsim/stop_signals.hpp"
#include "psfsim/virtual_join.hpp"
#include "rank_resources.hpp"

namespace psfsim::app {
namespace fs = std::filesystem;
namespace {

template <typename Step>
std::optional<Error> failure_of(Step&& step) {
  try {
    step();
  } catch (const Error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return RuntimeFailure("out of host memory");
  } catch (const std::exception& e) {
    return RuntimeFailure(e.what());
  }
  return std::nullopt;
}

// Ends every rank alike when any rank failed: the lowest failing rank throws its error (one
// message, however many ranks found the same bad input), the others a silent one.
void agree(MpiWorld& world, const std::optional<Error>& failure) {
  const int first = world.min(failure ? world.rank() : world.size());
  if (first == world.size()) return;
  const int code = world.broadcast(failure ? static_cast<int>(failure->code()) : 0, first);
  if (world.rank() == first) throw *failure;
  throw Error(static_cast<ExitCode>(code), "");
}

// This rank's share of the user's run: its block of frames, its file, its cores or its GPU.
RunSpec rank_spec(const RunSpec& user, const MpiWorld& world) {
  const int ranks = world.size();
  if (user.frames.size() < static_cast<std::size_t>(ranks))
    throw InputError("mpirun -n " + std::to_string(ranks) + ": the batch has " +
                     std::to_string(user.frames.size()) +
                     " frame(s); start at most that many ranks");
  RunSpec spec = user;
  const FrameRange block = rank_frames(user.frames.size(), world.rank(), ranks);
  const auto first = user.frames.begin() + static_cast<std::ptrdiff_t>(block.first);
  spec.frames.assign(first, first + static_cast<std::ptrdiff_t>(block.count));
  spec.output = rank_file_path(user.output, world.rank(), ranks);
  if (spec.threads == 0)
    spec.threads = rank_threads(static_cast<int>(std::thread::hardware_concurrency()),
                                world.local_size());
  if (spec.backend != "cpu")
    if (const int gpus = visible_gpus(); gpus > 0) spec.device = world.local_rank() % gpus;
  spec.quiet = spec.quiet || world.rank() != 0;  // one progress line: rank 0's block
  return spec;
}

// Everything a rank sets up before computing: what fails here is the input or the machine,
// found by every rank before any work.
struct RankWork {
  RunSpec user;
  std::unique_ptr<PsfFileWriter> file;
  std::unique_ptr<PsfRun> run;
};

RankWork prepare(const RunOptions& options, const std::string& command_line,
                 const MpiWorld& world) {
  RankWork work{to_run_spec(options), nullptr, nullptr};
  if (world.rank() == 0) check_output_path(work.user.output, work.user.force);
  RunSpec spec = rank_spec(work.user, world);
  work.file = std::make_unique<PsfFileWriter>(spec.output, spec.force, command_line);
  work.run = std::make_unique<PsfRun>(std::move(spec), builtin_backends());
  (void)work.run->backend();  // an unusable backend or device stops the job here
  return work;
}

// A rank's finished file is part of the output only once rank 0 has joined it: until then a
// stop signal or a failure removes it.
class RankFile {
 public:
  explicit RankFile(fs::path path) : path_(std::move(path)), on_signal_(path_) {}
  RankFile(const RankFile&) = delete;
  RankFile& operator=(const RankFile&) = delete;
  ~RankFile() {
    if (!kept_) remove();
  }
  void remove() noexcept {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  void keep() noexcept {
    kept_ = true;
    on_signal_.release();
  }

 private:
  fs::path path_;
  PartialFileGuard on_signal_;
  bool kept_ = false;
};

std::vector<PartFile> part_files(const RunSpec& user, int ranks) {
  std::vector<PartFile> parts;
  for (int r = 0; r < ranks; ++r)
    parts.push_back({rank_file_path(user.output, r, ranks),
                     rank_frames(user.frames.size(), r, ranks).count});
  return parts;
}

void print_summary(const RunSpec& user, const PsfRun& run, const TimingLog& log, int ranks,
                   const std::vector<double>& totals, const std::vector<double>& threads,
                   double join_seconds) {
  const Geometry& g = run.geometry();
  std::printf("psfsim: wrote %s: %zu x %d x %d %s from %d ranks (backend %s), over %s ... %s\n",
              user.output.c_str(), user.frames.size(), g.frame, g.frame,
              user.precision == Precision::single ? "float32" : "float64", ranks,
              log.backend.c_str(), rank_file_path(user.output, 0, ranks).filename().c_str(),
              rank_file_path(user.output, ranks - 1, ranks).filename().c_str());
  std::printf("(the rank files hold the frames: keep them beside %s)\n",
              user.output.filename().c_str());
  std::printf("%-6s %10s %8s %18s %14s\n", "rank", "frames", "threads", "total median [us]",
              "PSFs/s");
  for (int r = 0; r < ranks; ++r) {
    const std::size_t frames = rank_frames(user.frames.size(), r, ranks).count;
    std::printf("%-6d %10zu %8.0f %18.2f %14.0f\n", r, frames, threads[r], totals[r] * 1e6,
                frames / totals[r]);
  }
  std::printf("%-6s %10s %8s %18s %14.0f\n", "all", "", "", "",
              user.frames.size() / *std::max_element(totals.begin(), totals.end()));
  std::printf("join (virtual datasets): %.2f ms\n", join_seconds * 1e3);
}

}  // namespace

void execute_run_on_ranks(const RunOptions& options, const std::string& command_line,
                          MpiWorld& world) {
  RankWork work;
  agree(world, failure_of([&] { work = prepare(options, command_line, world); }));

  RankFile rank_file(work.run->spec().output);
  TimingLog log;
  const std::optional<Error> failure = failure_of([&] {
    const RunSpec& spec = work.run->spec();
    ProgressBar progress(spec.frames.size() * static_cast<std::size_t>(spec.repeat), !spec.quiet);
    log = work.run->execute(
        *work.file, [&progress](std::size_t done, std::size_t) { progress.update(done); });
    progress.finish();
  });
  if (failure) {
    work = RankWork{};  // the writer removes its partial file
    rank_file.remove();
    std::fprintf(stderr, "psfsim: error: %s\n", failure->what());
    std::fflush(stderr);
    world.abort(static_cast<int>(failure->code()));
  }

  world.barrier();  // every rank file is complete
  double join_seconds = 0.0;
  std::optional<Error> join_failure;
  // Until every rank keeps its file, a stop signal removes the joined output too, so that a
  // signal in between leaves neither, rather than an output without its frames.
  std::optional<PartialFileGuard> output_on_signal;
  if (world.rank() == 0) {
    const auto t0 = std::chrono::steady_clock::now();
    join_failure = failure_of([&] {
      join_part_files(work.user.output, part_files(work.user, world.size()), command_line,
                      to_toml(work.user));
      output_on_signal.emplace(work.user.output);
    });
    join_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  const int code = world.broadcast(join_failure ? static_cast<int>(join_failure->code()) : 0, 0);
  if (code != 0) {  // every rank's file goes with the output that failed
    if (join_failure) throw *join_failure;
    throw Error(static_cast<ExitCode>(code), "");
  }
  rank_file.keep();
  world.barrier();
  output_on_signal.reset();
  if (world.rank() == 0) remove_other_rank_files(work.user.output, world.size());
  const std::vector<double> totals = world.gather(median(log.total));
  const std::vector<double> threads = world.gather(log.threads);
  if (world.rank() == 0)
    print_summary(work.user, *work.run, log, world.size(), totals, threads, join_seconds);
}

}  // namespace psfsim::app

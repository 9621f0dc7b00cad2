#include "execution_policy.hpp"

#include <algorithm>

namespace psfsim::cuda {
namespace {

// Up to this much output per call, the intensity kernel writes the frames straight into
// pinned host memory, sparing a separate copy's fixed cost. Larger outputs go through the
// copy engine, which moves them slightly faster and can overlap the computation of later
// pieces of a batch (bench/results/code-constants.md).
constexpr std::size_t direct_write_limit = std::size_t{4} << 20;
// Up to this many complex values per call, the graph is timed as a whole by one pair of
// events around its launch: event nodes between the stages would cost a small PSF about as
// much as its three stages take together (bench/results/code-constants.md).
constexpr std::size_t whole_graph_timing_limit = std::size_t{1024} * 1024;
// Staged (--stage-timing, or a batch of fewer than 2 * pipeline_pieces frames), a batch whose
// output goes through the copy engine gets its intensities in up to this many pieces, each
// copied while the next is computed.
constexpr int max_copy_pieces = 8;
// Otherwise such a batch runs its whole pipeline (pupil, FFT, intensity) in this many
// pieces, each piece's copy overlapping the next piece's computation, which is faster for
// 1024 full frames at N = 128 (bench/gpu-check.sh; bench/results/2026-11-29-gpu-h200.md).
// Pieces add a kernel tail per piece and stage, so --stage-timing, which reports the
// device-only stages, keeps one piece.
constexpr int pipeline_pieces = 4;

// The text quotes the limits as they were chosen: the direct write in whole MiB, the whole
// graph as the square transform it stands for.
constexpr std::size_t mib = std::size_t{1} << 20;
static_assert(direct_write_limit % mib == 0);

constexpr std::size_t square_edge(std::size_t count) {
  std::size_t edge = 0;
  while ((edge + 1) * (edge + 1) <= count) ++edge;
  return edge;
}
constexpr std::size_t whole_graph_edge = square_edge(whole_graph_timing_limit);
static_assert(whole_graph_edge * whole_graph_edge == whole_graph_timing_limit);

}  // namespace

int FrameSplit::first(int piece) const noexcept {
  if (piece_frames > 0) return std::min(piece * piece_frames, frames);
  return static_cast<int>(static_cast<long long>(frames) * piece / pieces);
}

std::size_t ExecutionPolicy::buffer_frames() const noexcept {
  return timing == Timing::pieced ? static_cast<std::size_t>(pipeline_pieces) * piece_frames
                                  : static_cast<std::size_t>(max_batch);
}

FrameSplit ExecutionPolicy::copy_pieces(int frames, bool whole_pipeline) const noexcept {
  if (whole_pipeline) return {frames, (frames + piece_frames - 1) / piece_frames, piece_frames};
  return {frames, std::min(frames, max_copy_pieces), 0};
}

std::string ExecutionPolicy::fused_stages() const {
  switch (timing) {
    case Timing::whole:
      return "pupil+fft+intensity+transfer: a call of at most " + std::to_string(whole_graph_edge) +
             "x" + std::to_string(whole_graph_edge) +
             " complex values runs as one CUDA graph timed by one pair of events around its "
             "launch; events between the stages would cost about as much as the stages "
             "themselves";
    case Timing::pieced:
      return "pupil+fft+intensity+transfer: a batch with a large output runs its whole pipeline "
             "in " +
             std::to_string(pipeline_pieces) +
             " pieces, each piece's device-to-host "
             "copy overlapping the next piece's computation, timed by one pair of events "
             "around the graph launch (--stage-timing times each stage instead)";
    case Timing::fused_copy:
      return "intensity+transfer: outputs of at most " + std::to_string(direct_write_limit / mib) +
             " MiB per call are written by the intensity kernel straight into pinned host "
             "memory, without a separate copy";
    case Timing::staged:
      if (max_batch > 1)
        return "transfer: the batch's intensities are computed in pieces whose device-to-host "
               "copies overlap the intensity kernels of later pieces; transfer is the part of "
               "the copies left after the last intensity kernel";
      break;
  }
  return {};
}

ExecutionPolicy choose_execution_policy(const PsfPlan& plan) {
  ExecutionPolicy policy;
  policy.max_batch = plan.max_batch;
  const std::size_t batch = static_cast<std::size_t>(plan.max_batch);
  const std::size_t field_elements = static_cast<std::size_t>(plan.padded) * plan.padded;
  policy.direct_write = !plan.stage_timing && batch * plan.frame_bytes() <= direct_write_limit;
  if (plan.stage_timing) policy.timing = Timing::staged;
  else if (batch * field_elements <= whole_graph_timing_limit) policy.timing = Timing::whole;
  else if (policy.direct_write) policy.timing = Timing::fused_copy;
  else if (plan.max_batch >= 2 * pipeline_pieces)
    policy.timing = Timing::pieced;  // never with direct writes: pieces exist for the copies
  else policy.timing = Timing::staged;
  if (policy.timing == Timing::pieced)
    policy.piece_frames = (plan.max_batch + pipeline_pieces - 1) / pipeline_pieces;
  return policy;
}

}  // namespace psfsim::cuda

#pragma once
// How the backend's compute() calls run and are timed, chosen once from the plan's sizes.
#include <cstddef>
#include <string>

#include "psfsim/psf_plan.hpp"

namespace psfsim::cuda {

enum class Timing {
  whole,       // pupil+fft+intensity+transfer: one event pair around the graph launch
  fused_copy,  // pupil, fft, intensity+transfer (the intensity kernel writes to host)
  staged,      // pupil, fft, intensity, transfer (for a batch: the copies left at the end)
  pieced,      // pupil+fft+intensity+transfer of a batch run in overlapping pieces
};

// Piece p of a call holds frames [first(p), first(p + 1)).
struct FrameSplit {
  int frames = 0;
  int pieces = 1;
  int piece_frames = 0;  // every piece but the last this long; 0: pieces as even as can be

  [[nodiscard]] int first(int piece) const noexcept;
};

struct ExecutionPolicy {
  int max_batch = 1;
  Timing timing = Timing::staged;
  bool direct_write = false;  // the intensity kernel writes into pinned host memory
  int piece_frames = 0;       // frames per piece with Timing::pieced

  // Frames the pupil and field buffers hold: whole pieces, so that a piece's FFT (of
  // piece_frames frames) never runs past them.
  [[nodiscard]] std::size_t buffer_frames() const noexcept;
  // The pieces of a call whose device-to-host copies overlap later work: with
  // `whole_pipeline`, pupil, FFT and intensity together in pieces of piece_frames; else the
  // intensities alone.
  [[nodiscard]] FrameSplit copy_pieces(int frames, bool whole_pipeline) const noexcept;
  // Attribute text for /timings when stages are fused (empty when none are).
  [[nodiscard]] std::string fused_stages() const;
};

[[nodiscard]] ExecutionPolicy choose_execution_policy(const PsfPlan& plan);

}  // namespace psfsim::cuda

#pragma once
// The batch-level backend contract of SPEC §4. A backend owns the whole pipeline of a batch,
// from phase polynomials to intensity frames in host memory, so that it is free to fuse it.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "psfsim/phase_polynomial.hpp"
#include "psfsim/psf_plan.hpp"
#include "psfsim/stage_times.hpp"

namespace psfsim {

// Frames computed by one call, in backend-owned host memory (pinned on the GPU).
struct FrameBlock {
  const void* data = nullptr;  // frames * plan.frame_elements() reals of plan.precision, row-major
  // frames * plan.metrics.values_per_frame doubles, frame by frame; null without metrics.
  // `data` may be null when the plan stores no frames.
  const double* metrics = nullptr;
  std::size_t frames = 0;
  StageTimes times;
};

class Backend {
 public:
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  virtual ~Backend() = default;

  [[nodiscard]] virtual std::string name() const = 0;         // "cpu", "cuda"
  [[nodiscard]] virtual std::string device_name() const = 0;  // CPU model or GPU name
  [[nodiscard]] virtual const PsfPlan& plan() const = 0;
  // Attribute text for /timings when stages are fused (empty when none are).
  [[nodiscard]] virtual std::string fused_stages() const { return {}; }
  // Host threads a compute() call keeps busy, as /timings records them.
  [[nodiscard]] virtual int threads() const { return 1; }

  // Computes one frame per polynomial (1 <= frames.size() <= plan().max_batch). The returned
  // block stays valid until the second following call, so a caller can write one block while
  // the next is computed.
  [[nodiscard]] virtual FrameBlock compute(std::span<const PhasePolynomial> frames) = 0;
};

}  // namespace psfsim

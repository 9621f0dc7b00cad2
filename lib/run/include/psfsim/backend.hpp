#pragma once
// The batch-level backend contract of docs/spec.md §4. A backend owns the whole pipeline of a
// batch,
// from phase polynomials to intensity frames in host memory, so that it is free to fuse it.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "psfsim/errors.hpp"
#include "psfsim/aberration_polynomial.hpp"
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
  // True where the backend checked as it wrote them that every value of `data` is finite (a
  // GPU's kernels flag what they write), so that the caller need not read them for it; false
  // where it did not check, or found a value that is not.
  bool finite = false;
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
  // Seconds the backend spent making its transforms when it was created, once per run, as
  // /timings/plan records them: FFTW's planner with its wisdom file, the MFT's matrices,
  // cuFFT's plans and their device buffers; 0 where there are none.
  [[nodiscard]] virtual double plan_seconds() const { return 0.0; }

  // Memory for frames kept where this backend computes them (PsfPlan::frames_on_device),
  // freed with its last holder: device memory of the plan's device on a GPU (`device` set to
  // its CUDA ordinal), host memory elsewhere (`device` set to -1).
  [[nodiscard]] virtual std::shared_ptr<void> frame_memory(std::size_t bytes, int& device) const;
  // Host memory that this backend's device can copy frames into directly (pinned, on a GPU),
  // for a caller that keeps a batch's frames in host memory: submit_into() may then put a
  // call's frames there as part of the call, so that they cross the bus once and the host
  // never copies them. Freed with its last holder, which may outlive the backend. Null where
  // the backend has no such memory (by default: a host backend writes any memory itself) or
  // would pin too much of the machine's; the caller then uses plain host memory.
  [[nodiscard]] virtual std::shared_ptr<void> host_frame_memory(std::size_t /*bytes*/) const {
    return nullptr;
  }
  // Copies `bytes` between host memory and the memory of this backend's `device` (the plan's)
  // in any direction; the copy is complete on return. A plain function, so that it outlives
  // the backend.
  using MemoryCopy = void (*)(void* to, const void* from, std::size_t bytes, int device);
  [[nodiscard]] virtual MemoryCopy memory_copy() const;
  // Makes the frames of later calls wait for the work queued so far on `stream`, a CUDA
  // stream handle of the caller's (0: the legacy default stream), whose producer writes the
  // memory the frames go to. Nothing to wait for on the host.
  virtual void wait_for_stream(std::uintptr_t /*stream*/) {}
  // The CUDA ordinal of the device whose memory `address` is in, or -1 for host memory (all
  // memory, on a host backend): for checking that a caller's array is where the frames are.
  [[nodiscard]] virtual int memory_device(const void* /*address*/) const { return -1; }

  // Computes one frame per polynomial (1 <= frames.size() <= plan().max_batch), with no call
  // submitted and not yet finished. The returned block stays valid until the second
  // following call, so a caller can write one block while the next is computed.
  [[nodiscard]] virtual FrameBlock compute(std::span<const AberrationPolynomial> frames) = 0;
  // The same call with the frames written to `frames_out` (frames.size() frames of host
  // memory the caller owns) rather than into the backend's memory, for a caller that keeps
  // them (the Python module's arrays): the block's data is then `frames_out`. A host backend
  // writes there directly; by default the block is copied there.
  [[nodiscard]] virtual FrameBlock compute_into(std::span<const AberrationPolynomial> frames,
                                                void* frames_out);

  // The same work in two steps, so that a backend that queues work on a device can have the
  // next call queued while the host takes the last one's block: submit() starts a call, and
  // finish() returns the block of the oldest call submitted and not yet finished. At most
  // two calls are pending at once. The polynomials must stay valid until their call's
  // finish() returns (by default the work runs there). A block stays valid until the
  // second following finish() or the third following submit(), whichever comes first.
  // FrameBlock::times.total is the time the call added to the run: from its submit(), or
  // from the previous finish() if that came later, to its own finish().
  // True where submit() copies all it needs of the polynomials, so that they may be reused
  // as soon as it returns (the caller then compiles the next chunk while the call runs).
  [[nodiscard]] virtual bool copies_frames_at_submit() const { return false; }
  virtual void submit(std::span<const AberrationPolynomial> frames) {
    if (submitted_ - finished_ >= deferred_.size())
      throw RuntimeFailure(name() + " backend: a third call submitted before one finished");
    deferred_[submitted_++ % deferred_.size()] = frames;
  }
  // The host's share of the next submit(), done ahead: with two calls pending, a caller that
  // will wait in finish() hands over the polynomials of the call it submits after it, and a
  // backend that lays out a call's inputs on the host (a device's phase tables) lays them out
  // now, while the device works, so that the submit launches at once instead of leaving the
  // device idle behind the host. The next submit() must be given the very same polynomials,
  // unchanged; a submit given others, or one the backend could not prepare for, does the
  // work itself. By default nothing is done ahead.
  virtual void prepare_next(std::span<const AberrationPolynomial> /*frames*/) {}
  // submit() for a caller that keeps the frames in the backend's own kind of memory: device
  // memory of the plan's device with plan().frames_on_device, else host memory from
  // host_frame_memory(). `frames_out` has room for frames.size() frames there. A backend that
  // can put them there as part of the call (a device queues the copy behind the call's work,
  // so that the caller waits once, not twice) returns `frames_out` as its block's data;
  // otherwise, as by default, the caller copies the block it returns.
  virtual void submit_into(std::span<const AberrationPolynomial> frames, void* /*frames_out*/) {
    submit(frames);
  }
  // Right after finish() (or compute()), before the next submit: the memory of the block it
  // returned, handed to the caller to keep (host memory, or the device's with
  // plan().frames_on_device), so that it need not be copied. The backend puts later calls
  // elsewhere until the last holder lets go; the memory outlives the backend. While any block
  // is lent, a block stays valid only until the next submit(). Null where the backend cannot
  // (by default; a block in a submit_into destination; too many blocks lent): the caller
  // copies the block then.
  [[nodiscard]] virtual std::shared_ptr<const void> lend_block() { return nullptr; }
  [[nodiscard]] virtual FrameBlock finish() {
    if (finished_ == submitted_)
      throw RuntimeFailure(name() + " backend: finish() with no call submitted");
    return compute(deferred_[finished_++ % deferred_.size()]);
  }

 private:
  std::array<std::span<const AberrationPolynomial>, 2> deferred_{};
  std::size_t submitted_ = 0;
  std::size_t finished_ = 0;
};

}  // namespace psfsim

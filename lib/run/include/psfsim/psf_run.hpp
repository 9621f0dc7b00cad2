#pragma once
// One run, from a validated specification to frames in a sink: it resolves the backend,
// makes the plan once with its final batch size, compiles the phases chunk by chunk, drives
// the backend, overlaps each chunk's write with the next chunk's computation, and keeps the
// timing log. `psfsim run`, `psfsim sweep`, the tests and the benchmarks all run through it.
#include <cstddef>
#include <functional>
#include <future>
#include <memory>

#include "psfsim/backend.hpp"
#include "psfsim/backend_registry.hpp"
#include "psfsim/aberration_batch.hpp"
#include "psfsim/frame_sink.hpp"
#include "psfsim/phase_template.hpp"
#include "psfsim/reused_host_memory.hpp"
#include "psfsim/run_plan.hpp"
#include "psfsim/timing_log.hpp"
#include "psfsim/train_metrics.hpp"

namespace psfsim {

class DetectorStage;

// Frames per compute() call when the specification leaves it open: at most 16 MiB of output
// and 4096 frames, so that memory stays bounded for any B and progress moves, while each
// call is still large enough to keep a GPU busy (1024 frames of 64 x 64, or 64 of 256 x 256).
[[nodiscard]] int default_chunk_frames(std::size_t batch, std::size_t frame_bytes);

class PsfRun {
 public:
  // Called after each chunk with frames done and frames in all (repeats included).
  using Progress = std::function<void(std::size_t done, std::size_t total)>;

  // Validates `spec` (InputError) and selects its backend in `backends` (auto: by the run's
  // estimated wall time, BackendRegistry::choose), then checks that the
  // backend is usable and creates it with the run's plan on a thread of its own: a GPU's
  // start-up (driver and context, bench/results/2026-12-01-two-pass-transform.md) overlaps
  // the sink's opening (and its space reservation) and the first chunk's phases. A failure
  // there (RuntimeFailure when unusable) is thrown by the first call that needs the backend.
  PsfRun(RunSpec spec, const BackendRegistry& backends);
  PsfRun(const PsfRun&) = delete;
  PsfRun& operator=(const PsfRun&) = delete;
  ~PsfRun();

  [[nodiscard]] const RunSpec& spec() const noexcept { return spec_; }
  [[nodiscard]] const Geometry& geometry() const noexcept { return geometry_; }
  // Both wait for the backend's creation.
  [[nodiscard]] const PsfPlan& plan() { return backend().plan(); }
  [[nodiscard]] Backend& backend();
  // Where the selected backend computes (its registry entry's site), without waiting for it.
  [[nodiscard]] ComputeSite backend_site() const noexcept { return backend_site_; }
  // --backend auto's choice and its reason ("" for a backend named).
  [[nodiscard]] const std::string& backend_choice() const noexcept { return backend_choice_; }

  // Computes the first chunk `calls` times, untimed: plan upload, caches, page faults, clocks.
  void warm_up(int calls);
  // Computes the batch spec().repeat times, recording each repeat; the last repeat's frames
  // go to `sink`, chunk i written on a writer thread while chunk i+1 is computed. A frame
  // with a NaN or infinity stops the run (RuntimeFailure naming it) before it reaches the
  // sink. Closes the sink and returns the log it was given.
  TimingLog execute(FrameSink& sink, const Progress& progress = {});

  // Where compute() puts the frames: frame f's K*K reals at `data` + f*K*K, host memory or,
  // with `on_device`, the backend's (a device's); or, with `kept` and `data` null, into memory
  // handed to the caller through *kept: the backend's own block where it lends it
  // (Backend::lend_block: no copy), else a copy in new memory (host memory, or the backend's
  // frame_memory with frames_on_device). Neither: frames not kept.
  struct FrameDestination {
    void* data = nullptr;
    bool on_device = false;
    std::shared_ptr<const void>* kept = nullptr;
  };

  // For a caller that keeps the run and its plan across calls (the Python module): computes
  // one frame per entry of `terms` (in the run's --aberration-units, Zernike terms already
  // Noll's) in backend calls of at most max_batch() frames, pipelined as execute() pipelines
  // them. The frames go to `frames` and frame f's metrics to `metrics` + f *
  // plan().metrics.values_per_frame (nullptr: none kept). Frame f takes the per-frame pupil
  // maps of batch index f and the detector noise of frame `noise_first` + f. `after_call` runs
  // after each call with the frames done; it may throw to stop, and the call already submitted
  // is finished before the exception leaves.
  void compute(std::span<const Aberration> terms, const FrameDestination& frames, double* metrics,
               std::size_t noise_first, const Progress& after_call = {});
  // The template of frames that set `ids` over `fixed` (Noll terms in --aberration-units),
  // for the compute() below; none where the run's field model adds terms by position.
  [[nodiscard]] std::optional<PhaseTemplate> phase_template(const Aberration& fixed,
                                                            std::span<const TermId> ids) const;
  // compute() for `count` frames of one template: frame f's k-th value (as set_term stores
  // it) at values[f * frame_stride + k * value_stride]. No frame's terms are built.
  void compute(const PhaseTemplate& shape, const double* values, std::size_t count,
               std::size_t frame_stride, std::size_t value_stride, const FrameDestination& frames,
               double* metrics, std::size_t noise_first, const Progress& after_call = {});
  // Frames per backend call, as the plan was made for.
  [[nodiscard]] int max_batch() const noexcept { return max_batch_; }

 private:
  // The chunk's phases, compiled now or found compiled (by compile_ahead, or held from an
  // earlier repeat).
  [[nodiscard]] std::span<const AberrationPolynomial> phases(std::size_t first, std::size_t count);
  // Starts compiling a chunk on a thread of its own, into the buffer phases() did not last
  // return, so that it overlaps the backend's computation of the current chunk.
  void compile_ahead(std::size_t first, std::size_t count);
  // The frame's terms with the field model's at its point, in waves at the reference
  // wavelength (--aberration-units).
  [[nodiscard]] Aberration in_waves(Aberration terms) const;
  // Throws RuntimeFailure naming the first frame of the block with a NaN or infinity.
  void require_finite(std::size_t first, const FrameBlock& block);
  // What compiling a frame costs on one core, each several times less than the one before:
  // building and compiling its terms, drawing its values for a template, a template's values
  // given.
  enum class FrameCost { terms, drawn_template, template_values };
  // Threads that compile `count` phases: several only where a device computes them, and
  // only where the frames' cost outweighs starting the threads.
  [[nodiscard]] int compile_threads(std::size_t count, FrameCost cost) const noexcept;
  // Frames [first, first + phases.size()) of `terms`, compiled to `degree` into `phases`.
  void compile_terms(std::span<const Aberration> terms, std::size_t first, int degree,
                     std::vector<AberrationPolynomial>& phases) const;
  // Fills `phases` (sized) with the frames from `first` on.
  using CompileCall = std::function<void(std::size_t first, std::vector<AberrationPolynomial>&)>;
  void compute_compiled(std::size_t count, const CompileCall& compile, FrameDestination destination,
                        double* metrics, std::size_t noise_first, const Progress& after_call);
  // Runs work(lo, hi) over [0, count) on compile_threads(count, cost) threads.
  void compile_in_parallel(std::size_t count, FrameCost cost,
                           const std::function<void(std::size_t, std::size_t)>& work) const;
  // The metric rows of a block: the backend's values followed by the host's (contrast,
  // throughput) from its frames, written to `rows` (values_per_frame each).
  void complete_metrics(const FrameBlock& block, double* rows) const;
  // Memory for `bytes` of frames of the run's kind: host memory (reused once its caller lets
  // go), or the backend's with frames_on_device. With `pinned` given, host memory is the
  // backend's host_frame_memory where it has some for frames it computes unchanged (no
  // detector), *pinned then set, so that the calls copy into it themselves (submit_into).
  [[nodiscard]] std::shared_ptr<void> new_frame_memory(Backend& backend, std::size_t bytes,
                                                       bool* pinned = nullptr);
  // FrameDestination::kept for the block of a device's one call: checked for values that are
  // not finite (host frames), then lent by the backend, or else copied into new memory.
  void keep_block(Backend& backend, const FrameBlock& block, std::size_t frame_bytes,
                  std::shared_ptr<const void>& kept);
  // The detector's peak reference, once per run, when its normalization needs one.
  void prepare_detector(Backend& backend);

  RunSpec spec_;
  AberrationBatch terms_{spec_};  // the frames' terms, chunk by chunk (for compile)
  Geometry geometry_;
  std::string backend_name_;
  std::string backend_choice_;  // why auto took it ("" for a backend named)
  ComputeSite backend_site_ = ComputeSite::host;
  int max_batch_ = 1;
  std::future<std::unique_ptr<Backend>> pending_backend_;
  std::unique_ptr<Backend> backend_;
  std::unique_ptr<DetectorStage> detector_;  // oversampling, jitter or photon noise
  HostMetricsPlan host_metrics_;             // contrast and throughput, from the frames
  std::vector<double> host_rows_[2];         // their rows, by the chunk's write slot
  int degree_ = 0;                           // common phase-table degree of all frames
  bool detector_ready_ = false;
  struct CompiledChunk {
    std::vector<AberrationPolynomial> phases;
    std::size_t first = 0;
    bool valid = false;
    [[nodiscard]] bool holds(std::size_t f, std::size_t count) const noexcept {
      return valid && first == f && phases.size() == count;
    }
  };
  // Never runs twice at once: phases() waits for compile_ahead's before its own.
  void compile(CompiledChunk& chunk, std::size_t first, std::size_t count);
  CompiledChunk compiled_[2];
  // --random's frames without their terms built (none where the field adds terms).
  std::optional<PhaseTemplate> drawn_template_;
  // The host memory of frames handed to the caller (FrameDestination::kept), for reuse: plain,
  // and the backend's pinned memory (Backend::host_frame_memory).
  ReusedHostMemory host_frames_;
  ReusedHostMemory pinned_frames_{2, [this](std::size_t bytes) {
                                    return backend_ ? backend_->host_frame_memory(bytes) : nullptr;
                                  }};
  // compute()'s polynomials by call slot, kept so that their memory is reused call to call.
  std::vector<AberrationPolynomial> call_phases_[2];
  int current_ = 0;              // the buffer phases() last returned
  std::future<void> compiling_;  // compile_ahead's, into the other buffer
};

}  // namespace psfsim

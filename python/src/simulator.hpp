#pragma once
// psfsim.Simulator's engine: one run's specification and plan, kept across calls, which
// computes the frames of whatever phase terms each call brings. The Python layer (module.cpp)
// owns the arrays and the GIL; this class knows neither.
#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "psfsim/aberration.hpp"
#include "psfsim/option_table.hpp"
#include "psfsim/psf_run.hpp"
#include "run_arguments.hpp"

namespace psfsim::python {

// The options that change between a Simulator's calls: the frames' phase terms and the
// sources of a batch. Every other option is the Simulator's.
[[nodiscard]] bool is_phase_option(Option id) noexcept;

class Simulator {
 public:
  // `arguments` and `config` as parse_run takes them. `keep_on_device`: a device backend
  // leaves the frames in its memory (PsfPlan::frames_on_device), for result="device".
  Simulator(const std::vector<std::string>& arguments, const std::string& config,
            bool keep_on_device);

  [[nodiscard]] const RunSpec& spec() const noexcept { return spec_; }
  [[nodiscard]] int frame_edge() const noexcept { return frame_edge_; }  // K
  [[nodiscard]] Precision precision() const noexcept { return spec_.precision; }
  [[nodiscard]] bool stores_frames() const noexcept { return spec_.metrics.stores_frames(); }
  // The metrics each frame returns (empty when none), and their values per frame.
  [[nodiscard]] const std::vector<MetricColumn>& metric_columns() const noexcept {
    return columns_;
  }
  [[nodiscard]] std::size_t metric_values() const noexcept { return metric_values_; }
  // True when the options define a batch (vary, random, frames or a stack of pupil maps):
  // its frames come as (B, K, K), a lone frame as (K, K).
  [[nodiscard]] bool options_make_batch() const noexcept { return makes_batch_; }
  [[nodiscard]] std::string backend_name() const { return backend_name_; }
  [[nodiscard]] std::string device_name();
  // Where the backend computes: ComputeSite::device for a GPU.
  [[nodiscard]] ComputeSite site() const noexcept { return site_; }
  // The backend's copy between its memory and the host's, and its wait for a caller's stream.
  [[nodiscard]] Backend::MemoryCopy memory_copy();
  void wait_for_stream(std::uintptr_t stream);
  // Throws InputError unless `address` is in the memory of the device the frames are made on.
  void require_on_device(const void* address);

  // The frames of the Simulator's own options.
  [[nodiscard]] std::vector<Aberration> own_frames() const;
  // The frames the Simulator's options give with these phase options in place of its own
  // (`phase_arguments` as parse_run takes them; only phase options). Sets `batch` when they
  // define a batch.
  [[nodiscard]] std::vector<Aberration> frames_with(const std::vector<std::string>& phase_arguments,
                                                    bool& batch) const;
  // One frame with these --zernike and --seidel values in place of the Simulator's terms: the
  // quick path of sim(zernike=..., seidel=...), which parses only the terms.
  [[nodiscard]] Aberration frame_with_terms(const std::vector<std::string>& zernike,
                                            const std::vector<std::string>& seidel) const;
  // A (B, J) table of values for the J named terms ("Z4", "S2_1", as --frames' CSV names
  // them): row r is a frame of those set over the Simulator's own terms.
  struct TermTable {
    const double* values = nullptr;
    std::size_t rows = 0;
    std::size_t row_stride = 0;  // in values
    std::size_t column_stride = 0;
    std::vector<std::string> names;
  };
  // Computes `frames` into `out` (PsfRun::FrameDestination: the caller's B*K*K reals, or
  // memory handed over; neither when frames are not stored) and `metrics` (B *
  // metric_values() doubles; nullptr when none), one call at a time on each Simulator (a
  // second thread waits). The detector's noise continues from call to call.
  void compute(std::span<const Aberration> frames, const PsfRun::FrameDestination& out,
               double* metrics, const PsfRun::Progress& after_call);
  // The same for the table's rows (InputError for a name that is no term, a term named twice
  // or a value that is not finite). Rows of one template compile without their terms built.
  void compute(const TermTable& table, const PsfRun::FrameDestination& out, double* metrics,
               const PsfRun::Progress& after_call);

 private:
  // A run whose plan takes `batch` frames in as few backend calls as a run of them would.
  void plan_for(std::size_t batch);

  std::vector<std::string> arguments_;  // the constructor's, phase options left out
  std::vector<std::string> phase_arguments_;
  std::string config_;
  RunSpec spec_;
  std::vector<MetricColumn> columns_;
  std::size_t metric_values_ = 0;
  int frame_edge_ = 0;
  bool makes_batch_ = false;
  std::string backend_name_;
  ComputeSite site_ = ComputeSite::host;
  std::unique_ptr<PsfRun> run_;
  std::size_t planned_batch_ = 0;  // the batch run_'s plan was made for
  std::size_t noise_next_ = 0;     // the detector-noise index of the next frame
  std::vector<double> stored_;     // a table's values as set_term stores them, reused
  std::mutex mutex_;
};

}  // namespace psfsim::python

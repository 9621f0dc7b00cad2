#pragma once
// Where a run's frames go. The run owns everything from the specification to intensities in
// host memory; a sink owns what happens to them: the HDF5 file (PsfFileWriter), memory
// (FrameCollector), nothing (DiscardSink, for timing), and later metrics tables or an MPI
// writer.
#include <cstddef>
#include <string>

#include "psfsim/run_spec.hpp"
#include "psfsim/timing_log.hpp"

namespace psfsim {

// What a sink learns before the first frame; both references stay valid until close().
struct RunHeader {
  const RunSpec& spec;
  const Geometry& geometry;
  std::string backend;         // registry name: "cpu", "cuda"
  std::string backend_choice;  // --backend auto's reason (BackendChoice), "" when named
};

class FrameSink {
 public:
  FrameSink() = default;
  FrameSink(const FrameSink&) = delete;
  FrameSink& operator=(const FrameSink&) = delete;
  virtual ~FrameSink() = default;

  // Once, before any frame.
  virtual void open(const RunHeader& header) = 0;
  // Frames [first, first + count) of the batch, in frame order, K*K reals of the plan's
  // precision each. `data` is valid during the call only. Calls come from one thread at a
  // time, which need not be the thread that called PsfRun::execute.
  virtual void write_frames(std::size_t first, std::size_t count, const void* data) = 0;
  // The metrics of the same frames (docs/spec.md §7), plan.metrics.values_per_frame doubles per
  // frame,
  // when the run computes any; with --store metrics they come without write_frames calls.
  virtual void write_metrics(std::size_t /*first*/, std::size_t /*count*/,
                             const double* /*values*/) {}
  // Once, after the last frame, with the run's timings: log.write holds the time of the
  // write_frames calls, to which the sink adds whatever else it writes. The sink makes its
  // output final here; a sink destroyed without close() leaves nothing behind.
  virtual void close(TimingLog& log) = 0;
};

// Keeps nothing: for timing the computation alone.
class DiscardSink final : public FrameSink {
 public:
  void open(const RunHeader&) override {}
  void write_frames(std::size_t, std::size_t, const void*) override {}
  void close(TimingLog&) override {}
};

}  // namespace psfsim

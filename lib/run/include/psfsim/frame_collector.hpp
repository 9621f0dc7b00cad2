#pragma once
// A FrameSink that keeps the frames in memory, widened to double: for programs that use the
// library without a file, and for the tests.
#include <cstddef>
#include <span>
#include <vector>

#include "psfsim/frame_sink.hpp"

namespace psfsim {

class FrameCollector final : public FrameSink {
 public:
  void open(const RunHeader& header) override;
  void write_frames(std::size_t first, std::size_t count, const void* data) override;
  void write_metrics(std::size_t first, std::size_t count, const double* values) override;
  void close(TimingLog& log) override { log_ = log; }

  [[nodiscard]] std::size_t frames() const noexcept { return frames_; }
  [[nodiscard]] int edge() const noexcept { return edge_; }  // K
  // Frame `index`, K*K values, row-major (row = y, column = x).
  [[nodiscard]] std::span<const double> frame(std::size_t index) const;
  // Frame `index`'s metric values, in the order of metric_columns() (empty without metrics).
  [[nodiscard]] std::span<const double> metrics(std::size_t index) const;
  [[nodiscard]] const TimingLog& log() const noexcept { return log_; }

 private:
  std::size_t frames_ = 0;
  int edge_ = 0;
  Precision precision_ = Precision::single;
  std::vector<double> values_;  // empty with --store metrics
  std::size_t metric_width_ = 0;
  std::vector<double> metrics_;
  TimingLog log_;
};

}  // namespace psfsim

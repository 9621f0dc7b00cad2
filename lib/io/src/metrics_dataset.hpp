#pragma once
// /metrics (docs/spec.md §7): one float64 dataset per metric, one row per frame, written chunk by
// chunk as the run computes them.
#include <cstddef>
#include <vector>

#include "hdf5_handles.hpp"
#include "psfsim/metrics.hpp"

namespace psfsim::h5 {

class MetricsDatasets {
 public:
  // Creates /metrics and its datasets for `frames` frames.
  MetricsDatasets(hid_t root, const MetricsSpec& spec, std::size_t frames);
  // Rows [first, first + count), each the backend's values_per_frame values.
  void write(std::size_t first, std::size_t count, const double* rows);
  [[nodiscard]] hid_t group() const noexcept { return group_.get(); }

 private:
  Handle group_;
  std::vector<MetricColumn> columns_;
  std::size_t values_per_frame_ = 0;
  std::vector<Handle> sets_;
};

}  // namespace psfsim::h5

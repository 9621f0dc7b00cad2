#pragma once
// Stage times of every repeat of a run, as /timings stores them.
#include <string>
#include <vector>

#include "psfsim/stage_times.hpp"

namespace psfsim {

struct TimingLog {
  std::vector<std::string> stages;           // order of first appearance
  std::vector<std::vector<double>> seconds;  // seconds[stage][repeat]
  std::vector<double> total;                 // one per repeat
  double plan = 0.0;                         // the backend's planning, once (Backend)
  double write = 0.0;                        // the HDF5 write, once
  std::string backend;
  std::string device;
  std::string precision;
  int threads = 0;
  std::string fused;  // backend's note on fused stages, if any

  // Adds one compute() call's times as the next repeat (or adds to the current repeat when
  // a repeat spans several calls).
  void record(const StageTimes& times, bool new_repeat);
  [[nodiscard]] std::size_t repeats() const noexcept { return total.size(); }
};

[[nodiscard]] double median(std::vector<double> values);

}  // namespace psfsim

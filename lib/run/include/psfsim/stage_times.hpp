#pragma once
// Per-stage wall times of one compute() call, in seconds, in pipeline order.
#include <string>
#include <utility>
#include <vector>

namespace psfsim {

struct StageTimes {
  std::vector<std::pair<std::string, double>> stages;  // e.g. pupil, fft, intensity[, transfer]
  double total = 0.0;  // parameters in, intensities in host memory; not the sum of stages

  void add(std::string name, double seconds) { stages.emplace_back(std::move(name), seconds); }
};

}  // namespace psfsim

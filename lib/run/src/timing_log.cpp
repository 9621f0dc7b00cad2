#include "psfsim/timing_log.hpp"

#include <algorithm>

namespace psfsim {

void TimingLog::record(const StageTimes& times, bool new_repeat) {
  if (new_repeat || total.empty()) {
    total.push_back(0.0);
    for (auto& s : seconds) s.push_back(0.0);
  }
  const std::size_t r = total.size() - 1;
  total[r] += times.total;
  for (const auto& [name, value] : times.stages) {
    auto it = std::find(stages.begin(), stages.end(), name);
    if (it == stages.end()) {
      stages.push_back(name);
      seconds.emplace_back(total.size(), 0.0);
      it = stages.end() - 1;
    }
    seconds[static_cast<std::size_t>(it - stages.begin())][r] += value;
  }
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const auto mid = values.begin() + static_cast<long>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  if (values.size() % 2 == 1) return *mid;
  const double upper = *mid;
  const double lower = *std::max_element(values.begin(), mid);
  return 0.5 * (lower + upper);
}

}  // namespace psfsim

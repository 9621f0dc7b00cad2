#include "psfsim/cpu/fft_effort_policy.hpp"

#include <algorithm>
#include <cmath>

#include "psfsim/cpu/tuning.hpp"

namespace psfsim::cpu {

double measure_planning_frames(int padded) noexcept {
  const auto& table = tuning::measure_planning_frames;
  if (padded <= table.front().padded) return table.front().frames;
  for (std::size_t i = 1; i < table.size(); ++i) {
    if (padded > table[i].padded) continue;
    if (padded == table[i].padded) return table[i].frames;
    const double a = table[i - 1].frames;
    const double b = table[i].frames;
    const double t = std::log(static_cast<double>(padded) / table[i - 1].padded) /
                     std::log(static_cast<double>(table[i].padded) / table[i - 1].padded);
    return std::clamp(a * std::pow(b / a, t), std::min(a, b), std::max(a, b));
  }
  return table.back().frames;
}

double measure_pays_from(int padded) noexcept {
  return measure_planning_frames(padded) / tuning::measure_planning_share;
}

FftEffort choose_fft_effort(FftEffort requested, const FftWork& work) noexcept {
  if (requested != FftEffort::automatic) return requested;
  if (!work.wisdom) return FftEffort::estimate;
  return static_cast<double>(work.frames) >= measure_pays_from(work.padded) ? FftEffort::measure
                                                                            : FftEffort::estimate;
}

}  // namespace psfsim::cpu

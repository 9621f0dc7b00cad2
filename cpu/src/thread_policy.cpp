#include "psfsim/cpu/thread_policy.hpp"

#include <algorithm>
#include <cmath>

#include "psfsim/cpu/tuning.hpp"

namespace psfsim::cpu {

// One PSF (B = 1) by default. Threading a frame costs a roughly fixed overhead per frame (its
// parallel regions: the pupil rows, the column blocks or FFTW's loops), paid whatever the
// thread count, while the work divides by it. So a frame stays on one thread while its serial
// time is of the order of that overhead and takes every core once it is well above; where
// that happens depends on the machine as much as on M: the overhead weighs more on a machine
// of two cores, where the second thread also gains least (tuning.hpp's table, measured on two
// and on sixteen cores, and log-linear between). The grain caps the count on machines with
// many more cores than measured: no thread gets less than a 64 x 64 tile's worth.
// The same count splits the pupil rows and runs the FFTW plans, so every parallel region of a
// frame has the same OpenMP team (OmpTeam in fftw_backend.cpp says what a changing team cost).
long long frame_threading_points(int cores) noexcept {
  const auto& table = tuning::frame_threading_from;
  if (cores <= table.front().cores) return table.front().points;
  for (std::size_t i = 1; i < table.size(); ++i) {
    if (cores > table[i].cores) continue;
    const double a = static_cast<double>(table[i - 1].points);
    const double b = static_cast<double>(table[i].points);
    const double t = std::log(static_cast<double>(cores) / table[i - 1].cores) /
                     std::log(static_cast<double>(table[i].cores) / table[i - 1].cores);
    return std::llround(std::clamp(a * std::pow(b / a, t), std::min(a, b), std::max(a, b)));
  }
  return table.back().points;
}

ThreadPlan choose_threads(int padded, int max_batch, int requested, int cores) noexcept {
  const int available = std::max(1, requested > 0 ? requested : cores);
  ThreadPlan p;
  if (max_batch > 1) {
    p.workers = std::min(available, max_batch);
    return p;
  }
  if (requested > 0) {
    p.frame_threads = available;
    return p;
  }
  const long long points = static_cast<long long>(padded) * padded;
  if (points >= frame_threading_points(cores))
    p.frame_threads =
        static_cast<int>(std::clamp<long long>(points / tuning::frame_grain, 1, available));
  return p;
}

}  // namespace psfsim::cpu

#pragma once
// How hard the CPU backend's FFTW planner searches when the user leaves it to psfsim: a pure
// function of the run's work, unit-tested apart from FFTW (constants: tuning.hpp).
#include <cstddef>

#include "psfsim/enums.hpp"

namespace psfsim::cpu {

struct FftWork {
  int padded = 0;          // M
  std::size_t frames = 1;  // frames the run computes: its batch times its repeats
  bool wisdom = false;     // a wisdom file (the cache or --wisdom) keeps what was measured
};

// FFTW_MEASURE's planning at padded size M in frames' worth of an estimate's transforms:
// tuning.hpp's table, interpolated linearly in log M and log frames between its rows, and
// its first or last row's beyond them.
[[nodiscard]] double measure_planning_frames(int padded) noexcept;
// The frames from which `auto` measures: measure_planning_frames(M) over the share of the
// run's transforms the planning may cost (tuning::measure_planning_share).
[[nodiscard]] double measure_pays_from(int padded) noexcept;

// `requested` unless it is automatic. automatic: measure where the run computes at least
// measure_pays_from(M) frames and a wisdom file keeps the plans (without one, a measured plan
// is timed afresh in every process and may differ, so reruns would not give the same bits),
// else estimate. A measured plan then costs a first run at most that share more than its
// warm run, which reads the plan from the wisdom file; an estimate costs both the same.
[[nodiscard]] FftEffort choose_fft_effort(FftEffort requested, const FftWork& work) noexcept;

}  // namespace psfsim::cpu

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

// Frames from which a measured plan pays for its planning at padded size M: the table's
// value, interpolated linearly in log M and log frames between its rows, and its first or
// last row's beyond them.
[[nodiscard]] double measure_pays_from(int padded) noexcept;

// `requested` unless it is automatic. automatic: measure where the run computes at least
// measure_pays_from(M) frames and a wisdom file keeps the plans (without one, a measured plan
// is timed afresh in every process and may differ, so reruns would not give the same bits),
// else estimate.
[[nodiscard]] FftEffort choose_fft_effort(FftEffort requested, const FftWork& work) noexcept;

}  // namespace psfsim::cpu

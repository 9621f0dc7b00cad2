#pragma once
// The CPU backend's tuning constants, all of them: the thread counts of one frame and the
// FFTW planner's effort. Each comes from a measurement that a bench script repeats;
// docs/performance.md ("First run and planner effort", "CPU threads") gives the commands,
// the machines and the figures.
#include <array>

namespace psfsim::cpu::tuning {

// --- Threads of one frame (thread_policy.cpp), from `bench/cpu-threads.sh BUILD` on a
// machine of each row's cores: one frame is threaded from this many points of its M x M
// transform ...
struct FrameThreadingFrom {
  int cores;
  long long points;
};
inline constexpr std::array<FrameThreadingFrom, 2> frame_threading_from{{
    {2, 1024LL * 1024},
    {16, 256LL * 256},
}};
// ... with at most one thread per this many points (a 64 x 64 tile's worth).
inline constexpr long long frame_grain = 64LL * 64;

// --- The column pass of an FFTW_ESTIMATE plan (fftw_backend.cpp): each block of columns
// copied out holds this many bytes of every row, one cache line.
inline constexpr int buffered_column_bytes = 64;

// --- Planner effort (fft_effort_policy.cpp), from `bench/fft-effort.sh BUILD`.
// Frames from which FFTW_MEASURE's planning is paid back by its faster transforms, at a
// padded size M: the planning's extra seconds over the time it saves per frame.
struct MeasurePaysFrom {
  int padded;
  double frames;
};
inline constexpr std::array<MeasurePaysFrom, 9> measure_pays_from{{
    {64, 4000},
    {128, 4000},
    {256, 2000},
    {512, 1000},
    {1024, 500},
    {2048, 200},
    {4096, 100},
    {8192, 50},
    {16384, 50},
}};

}  // namespace psfsim::cpu::tuning

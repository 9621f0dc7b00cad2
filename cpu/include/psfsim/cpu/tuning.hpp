#pragma once
// The CPU backend's tuning constants, all of them: the thread counts of one frame, the
// FFTW planner's effort and the propagation cost model of --propagation auto. Each comes
// from a measurement that the bench script named beside it repeats; bench/results/ has the
// machines and the figures (2026-12-01-first-run-and-planner-effort.md,
// 2026-11-30-cpu-threads.md, 2026-11-30-mft-and-auto.md).
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

// --- Planner effort (fft_effort_policy.cpp), from `bench/fft-effort.sh BUILD` (its "planning
// in frames" column): FFTW_MEASURE's planning time at a padded size M, in frames' worth of
// the transforms an estimate computes ...
struct MeasurePlanningFrames {
  int padded;
  double frames;
};
inline constexpr std::array<MeasurePlanningFrames, 9> measure_planning_frames{{
    {64, 14000},
    {128, 4600},
    {256, 1800},
    {512, 550},
    {1024, 160},
    {2048, 40},
    {4096, 18},
    {8192, 9},
    {16384, 11},
}};
// ... and `auto` measures where that planning is at most this share of the run's transforms,
// so that a first run's planning costs at most that much more than its warm run's.
inline constexpr double measure_planning_share = 0.25;

// --- The propagation cost model (propagation_costs.cpp), from `bench/propagation-grid.sh
// BUILD cpu 32,64,128,256 16,32,64,128 64` (B = 64, float) on a machine of each vector unit:
// OpenBLAS's complex products run this many times as fast per operation as FFTW's
// transforms (Debian's FFTW runs AVX at most, OpenBLAS AVX-512 where the CPU has it:
// blas_kernels.hpp) ...
struct MftRates {
  double products_speedup;
  // ... and two BLAS calls and the intensity cost each MFT frame what this many of its
  // operations do.
  double per_frame_operations;
};
inline constexpr MftRates mft_rates_avx2{3.0, 3e5};
inline constexpr MftRates mft_rates_avx512{6.5, 1.5e5};

// --- --backend auto's model of a run (propagation_costs.cpp): a core does this many of the
// cost model's operations a second, the rate that puts the CPU's and the GPU's whole-process
// times of `bench/auto-grid.sh` (frames x N on the H200 host's 16 cores) on the measured
// side of each other (bench/results/2026-12-02-field-and-auto.md).
inline constexpr double operations_per_core_second = 1e10;

}  // namespace psfsim::cpu::tuning

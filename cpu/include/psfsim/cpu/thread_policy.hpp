#pragma once
// How the CPU backend spreads one compute() over threads: a pure function of the sizes, the
// requested thread count and the cores, unit-tested apart from FFTW. Its constants are in
// tuning.hpp; the measurements behind them in bench/results/ (2026-11-30-cpu-threads.md,
// 2026-12-01-first-run-and-planner-effort.md); bench/cpu-threads.sh reproduces them.

namespace psfsim::cpu {

struct ThreadPlan {
  int workers = 1;        // frames computed concurrently, each single-threaded (batches)
  int frame_threads = 1;  // threads inside one frame: its pupil rows and its FFTW plans
};

// Points of the M x M transform from which one frame is threaded by default on a machine
// of `cores` cores: tuning.hpp's frame_threading_from, log-linear in the cores between its
// rows, and its first or last row's beyond them.
[[nodiscard]] long long frame_threading_points(int cores) noexcept;

// padded size M, frames per compute B (max_batch), requested threads (0: psfsim chooses, up
// to `cores`), cores on this machine. Both counts are >= 1.
//  - B > 1: min(threads, B) workers, one frame each, single-threaded (threads: requested, or
//    all cores).
//  - B = 1, requested T > 0: T threads in the frame, as asked.
//  - B = 1, requested 0: one thread below frame_threading_points(cores), else
//    M*M / frame_grain threads, at most `cores`.
[[nodiscard]] ThreadPlan choose_threads(int padded, int max_batch, int requested,
                                        int cores) noexcept;

}  // namespace psfsim::cpu

#pragma once
// The CUDA backend's registry-level tuning constants: its propagation cost model and its
// start-up. Plain C++, no CUDA header, so that every build (and its tests) can read them.
// Each comes from a measurement that a bench command repeats on the GPU machine;
// bench/results/ has the machines and the figures (2026-12-01-queued-calls.md).

namespace psfsim::cuda::tuning {

// --- The propagation cost model (propagation_costs.hpp), from `bench/gpu-mft.sh BUILD`
// (bench/propagation-grid.sh BUILD cuda 32,64,128,256 16,32,64,128 1024 50): cuBLAS runs
// the MFT's products near peak, while cuFFT's transforms of the whole plane are bound by
// memory, so each product operation costs this many times less than an FFT operation. The
// MFT was the faster at every N of 32-256 and K of 16-128 (M = 2N) with this weight.
inline constexpr double mft_products_speedup = 16.0;

// --- Start-up (backend_entry.cpp), from `bench/cuda_start_bench.cpp`'s
// psfsim_cuda_start_bench: the CUDA context of a process's first create() before any work
// (the driver's part; more on a machine's first process), which a run that names the cuda
// backend starts while its frames are defined.
inline constexpr double start_up_seconds = 0.3;

}  // namespace psfsim::cuda::tuning

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

// --- Small calls (propagation_costs.hpp), from `bench/propagation-grid.sh BUILD cuda
// 32,64,128,256,512 16,32,64,128 1,4,16,64,256 60` on the H200
// (bench/results/2026-12-03-auto-small-calls.md): each call of the MFT pays its cuBLAS
// products' fixed cost, more than the FFT path's fused kernels take, so up to these frames a
// call the FFT was the faster at every K measured; a crop of the whole plane (K = M) crosses
// over four times sooner.
[[nodiscard]] constexpr int fft_up_to_frames(int samples, bool whole_plane) {
  const int frames = samples <= 32 ? 64 : samples <= 64 ? 16 : samples <= 128 ? 8 : 4;
  return whole_plane ? frames / 4 : frames;
}

// --- Start-up (backend_entry.cpp): a process's CUDA context, cuFFT's and cuBLAS's handles
// and the driver's teardown at exit (bench/cuda_start_bench.cpp has the context's part), which
// a run that names the cuda backend starts while its frames are defined.
inline constexpr double start_up_seconds = 0.4;

// --- --backend auto's model of a run (propagation_costs.hpp), from `bench/auto-grid.sh` and
// `bench/field-grid.sh cuda` on the H200 (bench/results/2026-12-02-field-and-auto.md): the
// cost model's operations a second, and the bytes a second that stored frames cross the bus
// at. start_up_seconds above is what a CUDA process's whole time exceeds a CPU process's by
// at negligible work there: the context, the libraries' handles and the driver's teardown.
inline constexpr double operations_per_second = 2e12;
inline constexpr double bus_bytes_per_second = 25e9;

}  // namespace psfsim::cuda::tuning

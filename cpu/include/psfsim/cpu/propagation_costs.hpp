#pragma once
// The CPU backend's cost model for --propagation auto: one frame's FFT and MFT in FFTW
// operations, from their operation counts and the rates this CPU's vector units reach
// (tuning.hpp).
#include "psfsim/backend_registry.hpp"
#include "psfsim/host_cores.hpp"

namespace psfsim::cpu {

// FFTW transforms N columns and only the K rows of the crop; OpenBLAS's two complex
// products of N x N x K and K x N x K run faster per operation, plus a fixed cost a frame.
[[nodiscard]] PropagationCosts propagation_costs(const PropagationWork& work, CpuVectorUnits cpu);

// Seconds of `work` on `cores` cores for --backend auto: its frames' operations at the rate a
// core reaches (tuning.hpp), a frame a core where there are enough frames, one core else.
[[nodiscard]] double run_seconds(const RunWork& work, CpuVectorUnits cpu, int cores);

}  // namespace psfsim::cpu

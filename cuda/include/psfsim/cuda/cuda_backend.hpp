#pragma once
// The CUDA backend, whole: its registry entry (cuFFT for the FFT, cuBLAS for the MFT, on an
// NVIDIA GPU), the only thing it exposes. No CUDA header reaches code that includes this.
#include "psfsim/backend_registry.hpp"

namespace psfsim::cuda {

// Name "cuda", site device, its cost model (propagation_costs.hpp) and its start-up.
// Reports "no CUDA device: ..." at run time where there is none.
[[nodiscard]] BackendEntry backend_entry();

}  // namespace psfsim::cuda

#pragma once
// The CPU backend, whole: its registry entry (FFTW for the FFT, OpenBLAS for the MFT, on this
// machine's cores), the only thing it exposes; the implementation stays private to cpu/.
#include "psfsim/backend_registry.hpp"

namespace psfsim::cpu {

// Name "cpu", site host, its cost model (propagation_costs.hpp) and the OpenBLAS environment
// as its process set-up.
[[nodiscard]] BackendEntry backend_entry();

}  // namespace psfsim::cpu

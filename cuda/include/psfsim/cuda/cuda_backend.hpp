#pragma once
// The cuFFT backend: registry entry only. No CUDA header reaches code that includes this.
#include "psfsim/backend_registry.hpp"

namespace psfsim::cuda {

// Name "cuda". Reports "no CUDA device: ..." at run time where there is none.
[[nodiscard]] BackendEntry backend_entry();

}  // namespace psfsim::cuda

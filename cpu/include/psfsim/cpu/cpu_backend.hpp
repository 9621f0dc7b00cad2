#pragma once
// The FFTW backend: registry entry only; the implementation stays private to cpu/.
#include "psfsim/backend_registry.hpp"

namespace psfsim::cpu {

[[nodiscard]] BackendEntry backend_entry();

}  // namespace psfsim::cpu

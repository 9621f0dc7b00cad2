#pragma once
// The CUDA MFT backend behind psfsim::Backend (plans with Propagation::mft); only
// backend_entry.cpp and the benchmark make one.
#include <memory>

#include "psfsim/backend.hpp"

namespace psfsim::cuda {

// Throws InputError for an unusable plan (device index, channels, memory that cannot fit)
// and RuntimeFailure for CUDA and cuBLAS errors.
[[nodiscard]] std::unique_ptr<Backend> make_mft_backend(const PsfPlan& plan);

}  // namespace psfsim::cuda

#pragma once
// The cuFFT backend behind psfsim::Backend; only backend_entry.cpp makes one.
#include <memory>

#include "psfsim/backend.hpp"

namespace psfsim::cuda {

// Throws InputError for an unusable plan (device index, memory that cannot fit) and
// RuntimeFailure for CUDA errors.
[[nodiscard]] std::unique_ptr<Backend> make_cufft_backend(const PsfPlan& plan);

}  // namespace psfsim::cuda

#pragma once
// The CPU backend of `--propagation mft` (docs/spec.md §6): the pupil of every frame and wavelength
// built unshifted at N x N, then each wavelength's matrix Fourier transform, weighted into
// one frame per phase.
#include <memory>

#include "psfsim/backend.hpp"

namespace psfsim::cpu {

[[nodiscard]] std::unique_ptr<Backend> make_mft_backend(const PsfPlan& plan);

}  // namespace psfsim::cpu

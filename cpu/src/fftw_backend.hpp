#pragma once
// The CPU backend of `--propagation fft`: each frame's pupil rows, a pruned 2D FFTW
// transform planned once, the intensity cropped and normalized.
#include <memory>
#include <string>

#include "psfsim/backend.hpp"

namespace psfsim::cpu {

[[nodiscard]] std::unique_ptr<Backend> make_fftw_backend(const PsfPlan& plan);

// "FFTW fftw-3.3.10-sse2-avx": the library's own version text.
[[nodiscard]] std::string fftw_version_line();

}  // namespace psfsim::cpu

#pragma once
// What the host works out once per plan about the sampled pupil, with pupil_math.hpp so
// that it agrees bit for bit with what the kernels see.
#include <vector>

#include "psfsim/psf_plan.hpp"

namespace psfsim::cuda {

// Sum of A over the pupil: (sum A)^2 is the peak normalization's divisor.
[[nodiscard]] double aperture_sum(const PsfPlan& plan);
// coordinate(i) for i in [0, N), then shift_waves(n) for n in [0, M): the pupil kernel's
// lookup tables.
[[nodiscard]] std::vector<double> grid_table(const PsfPlan& plan);

}  // namespace psfsim::cuda

#include "pupil_grid.hpp"

#include "psfsim/pupil_math.hpp"

namespace psfsim::cuda {

double aperture_sum(const PsfPlan& plan) {
  std::vector<double> x(plan.samples);
  for (int i = 0; i < plan.samples; ++i) x[i] = pupil::coordinate(i, plan.samples, plan.grid);
  double sum = 0.0;
  for (int r = 0; r < plan.samples; ++r)
    for (int c = 0; c < plan.samples; ++c)
      sum += pupil::inside_aperture(pupil::radius(x[c], x[r]), plan.obscuration) ? 1.0 : 0.0;
  return sum;
}

std::vector<double> grid_table(const PsfPlan& plan) {
  std::vector<double> table;
  table.reserve(plan.samples + plan.padded);
  for (int i = 0; i < plan.samples; ++i)
    table.push_back(pupil::coordinate(i, plan.samples, plan.grid));
  for (int n = 0; n < plan.padded; ++n) table.push_back(pupil::shift_waves(n, plan.padded));
  return table;
}

}  // namespace psfsim::cuda

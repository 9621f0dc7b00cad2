#include "psfsim/pupil_facts.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "psfsim/number_text.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/psf_plan.hpp"
#include "psfsim/pupil_math.hpp"

namespace psfsim {

PupilFacts::PupilFacts(int n, int m, Grid grid, double obscuration)
    : samples(n),
      padded(m),
      offset(pupil::pad_offset(n, m)),
      coordinates(n),
      shift_waves(m),
      spans(n) {
  for (int i = 0; i < n; ++i) coordinates[i] = pupil::coordinate(i, n, grid);
  for (int i = 0; i < m; ++i) shift_waves[i] = pupil::shift_waves(i, m);
  std::vector<char> inside_disk(n);
  std::vector<char> inside(n);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      const double rho = pupil::radius(coordinates[c], coordinates[r]);
      inside_disk[c] = rho <= 1.0;
      inside[c] = pupil::inside_aperture(rho, obscuration);
      aperture_sum += inside[c] ? 1.0 : 0.0;
    }
    ApertureSpan& s = spans[r];
    s.lo = static_cast<int>(std::find(inside_disk.begin(), inside_disk.end(), 1) -
                            inside_disk.begin());
    s.hi = s.lo + static_cast<int>(std::count(inside_disk.begin(), inside_disk.end(), 1));
    s.obscured_lo = s.obscured_hi = s.lo;
    for (int c = s.lo; c < s.hi; ++c)
      if (!inside[c]) {
        if (s.obscured_hi == s.lo) s.obscured_lo = c;
        s.obscured_hi = c + 1;
      }
    for (int c = 0; c < n; ++c) {  // the span must reproduce the exact test
      const bool in_span = c >= s.lo && c < s.hi && !(c >= s.obscured_lo && c < s.obscured_hi);
      if (in_span != static_cast<bool>(inside[c]))
        throw std::logic_error("aperture row " + std::to_string(r) + " is not a span");
    }
  }
  if (aperture_sum == 0.0)
    throw InputError("--samples " + std::to_string(n) + " --grid " +
                     std::string(to_string(grid)) + " --obscuration " +
                     format_number(obscuration) +
                     ": the aperture holds no pupil sample (rho <= 1 and rho >= obscuration)");
  peak_scale = 1.0 / (aperture_sum * aperture_sum);
}

const PupilFacts& PsfPlan::pupil_facts() const {
  if (!pupil) throw std::logic_error("a PsfPlan reached a backend without with_pupil_facts()");
  return *pupil;
}

PsfPlan with_pupil_facts(PsfPlan plan) {
  plan.pupil = std::make_shared<const PupilFacts>(plan.samples, plan.padded, plan.grid,
                                                  plan.obscuration);
  return plan;
}

}  // namespace psfsim

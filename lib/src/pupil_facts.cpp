#include "psfsim/pupil_facts.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "psfsim/aperture_geometry.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/number_text.hpp"
#include "psfsim/psf_plan.hpp"
#include "psfsim/pupil_maps.hpp"
#include "psfsim/pupil_math.hpp"

namespace psfsim {
namespace {

// The map of `option` from its file: N x N, one map or B (a stack of one map is one map).
PupilMap read_checked(const std::string& text, const char* option, int n, std::size_t batch) {
  PupilMap m = read_pupil_map(text, option);
  const auto fail = [&](const std::string& why) {
    throw InputError(std::string(option) + " " + m.file + ": " + why);
  };
  if (m.rows != static_cast<std::size_t>(n) || m.columns != static_cast<std::size_t>(n))
    fail("a " + std::to_string(m.rows) + " x " + std::to_string(m.columns) +
         " map (rows x columns); the run samples the pupil " + std::to_string(n) + " x " +
         std::to_string(n) + " (--samples)");
  if (m.frames > 1 && m.frames != batch)
    fail(std::to_string(m.frames) + " maps for a batch of " + std::to_string(batch) + " frames");
  return m;
}

std::string aperture_options(const ApertureSpec& a) {
  std::string text;
  if (a.spiders) text += " --spiders " + to_string(*a.spiders);
  if (a.hex_segments) text += " --hex-segments " + to_string(*a.hex_segments);
  if (!a.amplitude.empty()) text += " --pupil-amplitude " + a.amplitude;
  return text;
}

}  // namespace

PupilFacts::PupilFacts(int n, int m, Grid grid, double obscuration)
    : PupilFacts(n, m, grid, obscuration, ApertureSpec{}, 0.0, 1) {}

PupilFacts::PupilFacts(int n, int m, Grid grid, double obscuration, const ApertureSpec& aperture,
                       double reference_wavelength_m, std::size_t batch)
    : samples(n),
      padded(m),
      offset(pupil::pad_offset(n, m)),
      coordinates(n),
      shift_waves(m),
      spans(n) {
  for (int i = 0; i < n; ++i) coordinates[i] = pupil::coordinate(i, n, grid);
  for (int i = 0; i < m; ++i) shift_waves[i] = pupil::shift_waves(i, m);
  const std::size_t plane = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);

  // Shapes and the amplitude file make a map; an annulus alone keeps its spans.
  if (aperture.spiders || aperture.hex_segments || !aperture.amplitude.empty()) {
    const std::vector<double> mask = aperture_mask(coordinates, obscuration, aperture);
    if (aperture.amplitude.empty()) {
      amplitude = mask;
      amplitude_maps = 1;
    } else {
      PupilMap file = read_checked(aperture.amplitude, "--pupil-amplitude", n, batch);
      amplitude = std::move(file.values);
      amplitude_maps = file.frames;
      for (std::size_t i = 0; i < amplitude.size(); ++i) amplitude[i] *= mask[i % plane];
      for (std::size_t f = 0; f < amplitude_maps; ++f) {
        double sum = 0.0;
        for (std::size_t i = 0; i < plane; ++i) sum += amplitude[f * plane + i];
        if (!(sum > 0.0))
          throw InputError("--pupil-amplitude " + file.file + ": the amplitude " +
                           (amplitude_maps > 1 ? "of frame " + std::to_string(f) + " " : "") +
                           "sums to " + format_number(sum) +
                           " over the aperture (it must be positive)");
      }
    }
    for (int r = 0; r < n; ++r) {
      int lo = n, hi = 0;
      for (std::size_t f = 0; f < amplitude_maps; ++f) {
        const double* row = amplitude.data() + f * plane + static_cast<std::size_t>(r) * n;
        for (int c = 0; c < n; ++c)
          if (row[c] != 0.0) {
            lo = std::min(lo, c);
            hi = std::max(hi, c + 1);
          }
      }
      if (hi <= lo) lo = hi = 0;
      spans[r] = ApertureSpan{lo, hi, lo, lo};
    }
    for (std::size_t i = 0; i < plane; ++i) {
      aperture_sum += amplitude[i];
      energy_sum += amplitude[i] * amplitude[i];
    }
    if (aperture_sum == 0.0)
      throw InputError("--samples " + std::to_string(n) + " --grid " +
                       std::string(to_string(grid)) + " --obscuration " +
                       format_number(obscuration) + aperture_options(aperture) +
                       ": the aperture holds no pupil sample");
  } else {
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
  }
  if (amplitude.empty()) energy_sum = aperture_sum;  // A is 0 or 1
  peak_scale = 1.0 / (aperture_sum * aperture_sum);

  if (!aperture.opd.empty()) {
    PupilMap file = read_checked(aperture.opd, "--pupil-opd", n, batch);
    opd = std::move(file.values);
    opd_maps = file.frames;
    // waves = length / lambda, as --aberration-units scales the coefficients.
    const double unit = aperture.opd_units == AberrationUnits::nm   ? 1e-9
                        : aperture.opd_units == AberrationUnits::um ? 1e-6
                                                                    : 0.0;
    if (unit != 0.0) {
      if (!(reference_wavelength_m > 0.0))
        throw InputError("--opd-units " + std::string(to_string(aperture.opd_units)) +
                         ": an OPD in length units needs a wavelength");
      const double waves_per_unit = unit / reference_wavelength_m;
      for (double& v : opd) v *= waves_per_unit;
    }
  }
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

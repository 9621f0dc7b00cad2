#include "psfsim/pupil_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "psfsim/aperture_geometry.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/psf_plan.hpp"
#include "psfsim/pupil_map.hpp"
#include "psfsim/pupil_math.hpp"
#include "psfsim/units.hpp"

namespace psfsim {
namespace {

// The map of `option` as io read it from `text`: N x N, one map or B (a stack of one map is
// one map).
PupilMap checked_map(const std::shared_ptr<const PupilMap>& read, const std::string& text,
                     Option option, int n, std::size_t batch) {
  if (!read || read->source != text)
    throw std::logic_error(flag(option) + " " + text +
                           ": the map was not read (read_pupil_maps, psfsim/pupil_maps.hpp)");
  PupilMap m = *read;
  const auto fail = [&](const std::string& why) {
    throw InputError(flag(option) + " " + m.file + ": " + why);
  };
  if (m.rows != static_cast<std::size_t>(n) || m.columns != static_cast<std::size_t>(n))
    fail("a " + std::to_string(m.rows) + " x " + std::to_string(m.columns) +
         " map (rows x columns); the run samples the pupil " + std::to_string(n) + " x " +
         std::to_string(n) + " (" + flag(Option::samples) + ")");
  if (m.frames > 1 && m.frames != batch)
    fail(std::to_string(m.frames) + " maps for a batch of " + std::to_string(batch) + " frames");
  return m;
}

// Sample i of a map or stack, as a message names it.
std::string sample_place(std::size_t i, int n, bool stacked) {
  const std::size_t columns = static_cast<std::size_t>(n), plane = columns * columns;
  return (stacked ? "frame " + std::to_string(i / plane) + ", " : std::string()) + "row " +
         std::to_string(i % plane / columns) + ", column " + std::to_string(i % columns);
}

// The largest intensity a frame of the precision holds, and the smallest peak whose PSF keeps
// its faint parts (down to the precision's resolution below the peak) out of underflow.
struct IntensityRange {
  double lo;
  double hi;
};
IntensityRange intensity_range(Precision p) {
  if (p == Precision::single) {
    using L = std::numeric_limits<float>;
    return {L::min() / (L::epsilon() / 2), L::max()};
  }
  using L = std::numeric_limits<double>;
  return {L::min() / (L::epsilon() / 2), L::max()};
}

// A largest |A| in [1, 2), by a power of two: exact, and the frames do not change.
void scale_to_unit(std::vector<double>& amplitude) {
  double largest = 0.0;
  for (const double a : amplitude) largest = std::max(largest, std::fabs(a));
  if (largest > 0.0)
    for (double& a : amplitude) a = std::scalbn(a, -std::ilogb(largest));
}

// With the amplitude's scale kept, every frame's peak |E|^2 <= S^2 (sum |A|)^2 must lie in
// the precision's range.
void check_intensity_range(const std::vector<double>& amplitude, std::size_t maps,
                           std::size_t plane, const std::string& file, const PupilMapUse& use) {
  const IntensityRange range = intensity_range(use.precision);
  for (std::size_t f = 0; f < maps; ++f) {
    double sum = 0.0;
    for (std::size_t i = 0; i < plane; ++i) sum += std::fabs(amplitude[f * plane + i]);
    const double peak = sum * sum * use.oversample * use.oversample;
    if (peak >= range.lo && peak <= range.hi) continue;
    const std::string what = use.oversample > 1 ? "(S sum |A|)^2" : "(sum |A|)^2";
    throw InputError(flag(Option::pupil_amplitude) + " " + file +
                     ": the frames hold |E|^2 in the map's units, up to " + what + " = " +
                     format_two_digits(peak) + (maps > 1 ? " in frame " + std::to_string(f) : "") +
                     ", outside " + std::string(to_string(use.precision)) + " precision's " +
                     format_two_digits(range.lo) + " to " + format_two_digits(range.hi) +
                     " (scale the map, or use " + flag(Option::normalize) + " peak or sum" +
                     (use.precision == Precision::single
                          ? ", or " + flag(Option::precision) + " double)"
                          : std::string(")")));
  }
}

// Waves at the reference wavelength per unit of the OPD map, as --aberration-units scales
// the coefficients: waves = length / lambda.
double opd_waves_per_unit(const ApertureSpec& aperture, double reference_wavelength_m) {
  const double unit = aperture.opd_units == AberrationUnits::nm   ? 1e-9
                      : aperture.opd_units == AberrationUnits::um ? 1e-6
                                                                  : 0.0;
  if (unit == 0.0) return 1.0;
  if (!(reference_wavelength_m > 0.0))
    throw InputError(flag(Option::opd_units) + " " + std::string(to_string(aperture.opd_units)) +
                     ": an OPD in length units needs a wavelength");
  return unit / reference_wavelength_m;
}

// Refuses a value with more waves at the run's shortest wavelength than doubles resolve to
// 1e-6 waves.
void check_opd_range(const std::vector<double>& opd, const PupilMap& file,
                     const ApertureSpec& aperture, double waves_per_unit,
                     double reference_wavelength_m, const PupilMapUse& use, int n) {
  const double shortest =
      use.shortest_wavelength_m > 0.0 ? use.shortest_wavelength_m : reference_wavelength_m;
  const double phase_scale =
      reference_wavelength_m > 0.0 && shortest > 0.0 ? reference_wavelength_m / shortest : 1.0;
  for (std::size_t i = 0; i < opd.size(); ++i) {
    const double waves = std::fabs(opd[i] * waves_per_unit) * phase_scale;
    if (waves < max_opd_waves) continue;
    std::string at = format_number(opd[i]) + " " + std::string(to_string(aperture.opd_units)) +
                     " at " + sample_place(i, n, file.stacked);
    if (waves_per_unit != 1.0 || phase_scale != 1.0)
      at += " is " + format_two_digits(waves) + " waves at " + format_length(shortest) +
            (phase_scale != 1.0 ? " (the run's shortest wavelength)" : "");
    throw InputError(flag(Option::pupil_opd) + " " + file.file + ": " + at +
                     ", beyond 2^33 = 8589934592 waves, where doubles lie more than 1e-6 "
                     "waves apart");
  }
}

std::string aperture_options(const ApertureSpec& a) {
  std::string text;
  if (a.spiders) text += " " + flag(Option::spiders) + " " + to_string(*a.spiders);
  if (a.hex_segments) text += " " + flag(Option::hex_segments) + " " + to_string(*a.hex_segments);
  if (!a.amplitude.empty()) text += " " + flag(Option::pupil_amplitude) + " " + a.amplitude;
  return text;
}

}  // namespace

std::vector<char> SampledPupil::opd_aperture(std::size_t f, std::size_t maps) const {
  const std::size_t plane = map_size();
  std::vector<char> inside(plane, 0);
  if (amplitude.empty()) {
    for (int r = 0; r < samples; ++r) {
      const ApertureSpan& s = spans[r];
      for (int c = 0; c < samples; ++c)
        inside[static_cast<std::size_t>(r) * samples + c] =
            c >= s.lo && c < s.hi && !(c >= s.obscured_lo && c < s.obscured_hi);
    }
    return inside;
  }
  const bool own = maps > 1 && amplitude_maps > 1;
  for (std::size_t a = own ? f : 0; a < (own ? f + 1 : amplitude_maps); ++a)
    for (std::size_t i = 0; i < plane; ++i)
      if (amplitude[a * plane + i] != 0.0) inside[i] = 1;
  return inside;
}

namespace {

// The map less its midrange over the samples `inside`.
void remove_midrange(double* map, const std::vector<char>& inside) {
  double lo = 0.0, hi = 0.0;
  bool any = false;
  for (std::size_t i = 0; i < inside.size(); ++i) {
    if (!inside[i]) continue;
    lo = any ? std::min(lo, map[i]) : map[i];
    hi = any ? std::max(hi, map[i]) : map[i];
    any = true;
  }
  const double middle = 0.5 * lo + 0.5 * hi;
  for (std::size_t i = 0; i < inside.size(); ++i) map[i] -= middle;
}

}  // namespace

// Each OPD map less its midrange over the aperture: a constant phase changes no intensity at
// any wavelength, and a map of 1e9 waves of piston becomes zeros, whose phase and RMS then
// need no cancellation. A map that every frame shares takes the union of their apertures.
void SampledPupil::remove_opd_midrange() {
  for (std::size_t f = 0; f < opd_maps; ++f)
    remove_midrange(opd.data() + f * map_size(), opd_aperture(f, opd_maps));
}

double static_terms_waves(const StaticPupilTerms& terms, double x, double y) noexcept {
  double w = terms.offset_x * (0.5 * x) + terms.offset_y * (0.5 * y);
  if (terms.defocus_waves != 0.0) {
    // sqrt(1 - a^2) - 1 = -a^2 / (1 + sqrt(1 - a^2)), without the cancellation near the axis.
    const double a = std::min(pupil::radius(x, y), 1.0) / (2.0 * terms.fnumber);
    w -= terms.defocus_waves * (a * a) / (1.0 + std::sqrt(1.0 - a * a));
  }
  return w;
}

// The terms, less their own midrange over the aperture, added to every OPD map (or made the
// one map): in waves at the reference wavelength, as the maps are by now.
void SampledPupil::add_static_terms(const StaticPupilTerms& terms) {
  const std::size_t plane = map_size();
  std::vector<double> map(plane);
  for (int r = 0; r < samples; ++r)
    for (int c = 0; c < samples; ++c)
      map[static_cast<std::size_t>(r) * samples + c] =
          static_terms_waves(terms, coordinates[c], coordinates[r]);
  remove_midrange(map.data(), opd_aperture(0, 1));
  if (opd.empty()) {
    opd = std::move(map);
    opd_maps = 1;
    return;
  }
  for (std::size_t f = 0; f < opd_maps; ++f)
    for (std::size_t i = 0; i < plane; ++i) opd[f * plane + i] += map[i];
}

SampledPupil::SampledPupil(int n, int m, Grid grid, double obscuration)
    : SampledPupil(n, m, grid, obscuration, ApertureSpec{}, 0.0, 1) {}

SampledPupil::SampledPupil(int n, int m, Grid grid, double obscuration,
                           const ApertureSpec& aperture, double reference_wavelength_m,
                           std::size_t batch, const PupilMapUse& use, const StaticPupilTerms& terms)
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
      PupilMap file = checked_map(aperture.amplitude_map, aperture.amplitude,
                                  Option::pupil_amplitude, n, batch);
      amplitude = std::move(file.values);
      amplitude_maps = file.frames;
      for (std::size_t i = 0; i < amplitude.size(); ++i) amplitude[i] *= mask[i % plane];
      for (std::size_t f = 0; f < amplitude_maps; ++f) {
        double sum = 0.0;
        for (std::size_t i = 0; i < plane; ++i) sum += amplitude[f * plane + i];
        if (!(sum > 0.0))
          throw InputError(flag(Option::pupil_amplitude) + " " + file.file + ": the amplitude " +
                           (amplitude_maps > 1 ? "of frame " + std::to_string(f) + " " : "") +
                           "sums to " + format_number(sum) +
                           " over the aperture (it must be positive)");
      }
      // One factor for every frame's map, so that the frames keep their ratios.
      if (use.amplitude_scale_cancels) scale_to_unit(amplitude);
      else check_intensity_range(amplitude, amplitude_maps, plane, file.file, use);
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
      throw InputError(flag(Option::samples) + " " + std::to_string(n) + " " + flag(Option::grid) +
                       " " + std::string(to_string(grid)) + " " + flag(Option::obscuration) + " " +
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
      throw InputError(flag(Option::samples) + " " + std::to_string(n) + " " + flag(Option::grid) +
                       " " + std::string(to_string(grid)) + " " + flag(Option::obscuration) + " " +
                       format_number(obscuration) +
                       ": the aperture holds no pupil sample (rho <= 1 and rho >= obscuration)");
  }
  if (amplitude.empty()) energy_sum = aperture_sum;  // A is 0 or 1
  peak_scale = 1.0 / (aperture_sum * aperture_sum);

  if (!aperture.opd.empty()) {
    PupilMap file = checked_map(aperture.opd_map, aperture.opd, Option::pupil_opd, n, batch);
    opd = std::move(file.values);
    opd_maps = file.frames;
    const double waves_per_unit = opd_waves_per_unit(aperture, reference_wavelength_m);
    check_opd_range(opd, file, aperture, waves_per_unit, reference_wavelength_m, use, n);
    remove_opd_midrange();  // in the map's units: 1e9 nm of piston goes before any rounding
    if (waves_per_unit != 1.0)
      for (double& v : opd) v *= waves_per_unit;
  }
  if (terms.any()) add_static_terms(terms);
}

const SampledPupil& PsfPlan::sampled_pupil() const {
  if (!pupil) throw std::logic_error("a PsfPlan reached a backend without with_sampled_pupil()");
  return *pupil;
}

PsfPlan with_sampled_pupil(PsfPlan plan) {
  plan.pupil =
      std::make_shared<const SampledPupil>(plan.samples, plan.padded, plan.grid, plan.obscuration);
  return plan;
}

}  // namespace psfsim

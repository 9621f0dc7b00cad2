#include "optical_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"
#include "psfsim/units.hpp"

namespace psfsim {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

// "--wavelength, --wavelengths or --band": where a wavelength comes from.
std::string wavelength_options() {
  return flag(Option::wavelength) + ", " + flag(Option::wavelengths) + " or " + flag(Option::band);
}

constexpr double radians_per_arcsec = std::numbers::pi / (180.0 * 3600.0);

// A jitter this wide already spreads a PSF flat over any frame; the bound keeps its width in
// sub-pixels a finite number.
constexpr double max_jitter_lambda_over_d = 1e6;

// The MFT evaluates the phase theta*xi in turns exactly below 2^28 turns (sincos_turns), and
// its largest |theta*xi| is (pixel scale) (K + 1) / 4 at K pixels: the coarsest pixel, in
// lambda/D, that a K-pixel frame takes.
double coarsest_mft_pixel(int frame) { return 0x1p30 / (frame + 1.0); }

// The options a physical pixel scale comes from, as given, for its messages.
std::string pixel_scale_options(const OpticsSpec& o, double wavelength_m) {
  const std::string wavelength = "the wavelength " + format_length(wavelength_m);
  if (!o.pixel_scale)
    return flag(Option::fnumber) + " " + format_number(o.fnumber.value_or(0.0)) + " and " +
           flag(Option::pixel_pitch) + " " + format_length(o.pixel_pitch_m.value_or(0.0)) + " at " +
           wavelength;
  const std::string scale = flag(Option::pixel_scale) + " " + format_angle(*o.pixel_scale);
  if (o.pixel_scale->lod) return scale;
  return scale + " at " + flag(Option::diameter) + " " + format_length(o.diameter_m.value_or(0.0)) +
         " and " + wavelength;
}

// Radians to λ_ref/D: needs both, else the option must be given in lod.
double in_lambda_over_d(const Angle& a, const Geometry& g, Option option) {
  if (a.lod) return a.value;
  require(g.diameter_m && g.reference_wavelength_m > 0.0,
          flag(option) + " " + format_angle(a) + ": an angle needs " + flag(Option::diameter) +
              " and a wavelength; or give it in lod");
  return a.value * *g.diameter_m / g.reference_wavelength_m;
}

// --fnumber is half of the pixel scale --pixel-pitch gives, unless --defocus-distance alone
// takes it (the F-number of the light cone the detector sits in).
bool fnumber_sets_pixel_scale(const OpticsSpec& o) {
  return o.pixel_pitch_m || (o.fnumber && !o.defocus_distance_m);
}

// The physical pixel scale in λ_ref/D, or 0 when none is given.
double physical_pixel_scale(const OpticsSpec& o, Geometry& g) {
  const double lambda = g.reference_wavelength_m;
  if (o.pixel_scale) {
    require(!fnumber_sets_pixel_scale(o),
            flag(Option::pixel_scale) + " and " + flag(Option::fnumber) + "/" +
                flag(Option::pixel_pitch) + ": give one pixel scale, not both");
    if (o.pixel_scale->lod) return o.pixel_scale->value;
    g.pixel_scale_arcsec = o.pixel_scale->value / radians_per_arcsec;
    const std::string scale = flag(Option::pixel_scale) + " " + format_angle(*o.pixel_scale);
    require(o.diameter_m.has_value(),
            scale + ": an angle per pixel needs " + flag(Option::diameter) + " (or give lod)");
    require(lambda > 0.0, scale + ": an angle per pixel needs " + wavelength_options());
    return o.pixel_scale->value * *o.diameter_m / lambda;
  }
  if (fnumber_sets_pixel_scale(o)) {
    const std::string pair = flag(Option::fnumber) + " and " + flag(Option::pixel_pitch);
    require(o.fnumber && o.pixel_pitch_m, pair + ": give both");
    require(lambda > 0.0, pair + " need " + wavelength_options());
    if (o.diameter_m)
      g.pixel_scale_arcsec = *o.pixel_pitch_m / (*o.fnumber * *o.diameter_m) / radians_per_arcsec;
    return *o.pixel_pitch_m / (lambda * *o.fnumber);
  }
  return 0.0;
}

// --defocus-distance: DZ and the F-number it needs, with a wavelength.
void derive_defocus(const OpticsSpec& o, Geometry& g) {
  const std::string named =
      flag(Option::defocus_distance) + " " + format_length(*o.defocus_distance_m);
  require(std::isfinite(*o.defocus_distance_m), named + ": must be a finite length");
  require(o.fnumber.has_value(), named + ": needs " + flag(Option::fnumber) +
                                     " (the F-number of the light cone the detector sits in)");
  require(g.reference_wavelength_m > 0.0, named + ": needs " + wavelength_options());
  // rho/(2F) is the sine of the marginal ray's angle: F = 1/2 is a numerical aperture of 1.
  require(*o.fnumber > 0.5, named + " " + flag(Option::fnumber) + " " + format_number(*o.fnumber) +
                                ": the F-number must be above 0.5 (a numerical aperture below 1)");
  g.defocus_distance_m = *o.defocus_distance_m;
}

// The radius, in lambda/D at `wavelength_m`, of the defocused geometric spot: the marginal
// ray's slope d W / d xi at the rim, |DZ| tan(theta) / (lambda F) with sin(theta) = 1/(2F).
double defocus_spot_radius(const Geometry& g, double wavelength_m) {
  if (g.defocus_distance_m == 0.0) return 0.0;
  const double f = *g.fnumber;
  return std::fabs(g.defocus_distance_m) /
         (2.0 * wavelength_m * f * f * std::sqrt(1.0 - 1.0 / (4.0 * f * f)));
}

// N pupil samples a distance D/span apart have a focal plane that repeats every span
// lambda/D: a pupil phase whose slope passes span/2 waves per D (half a wave per sample)
// aliases, and a PSF moved or spread that far folds back. The source offset and the defocused
// spot must stay inside, at the shortest wavelength, whose lambda/D is the smallest.
void check_alias_free(const RunSpec& spec, const Geometry& g) {
  const double x = g.source_offset_lambda_over_d[0], y = g.source_offset_lambda_over_d[1];
  if (x == 0.0 && y == 0.0 && g.defocus_distance_m == 0.0) return;
  double shortest = g.reference_wavelength_m;
  for (const SpectralLine& line : g.spectrum)
    if (line.wavelength_m > 0.0)
      shortest = shortest > 0.0 ? std::min(shortest, line.wavelength_m) : line.wavelength_m;
  const double ratio = shortest > 0.0 && g.reference_wavelength_m > 0.0
                           ? g.reference_wavelength_m / shortest
                           : 1.0;  // lambda_ref/D in lambda_min/D
  const double spot = defocus_spot_radius(g, shortest);
  const double reach = std::max(std::fabs(x), std::fabs(y)) * ratio + spot;
  const double span = spec.grid == Grid::centered ? spec.samples : spec.samples - 1.0;
  if (reach < span / 2.0) return;
  const OpticsSpec& o = spec.optics;
  std::string options;
  if (x != 0.0 || y != 0.0)
    options = flag(Option::source_offset) + " " + format_angle((*o.source_offset)[0]) + "," +
              format_angle((*o.source_offset)[1]);
  if (g.defocus_distance_m != 0.0)
    options += (options.empty() ? "" : " and ") + flag(Option::defocus_distance) + " " +
               format_length(g.defocus_distance_m) + " at " + flag(Option::fnumber) + " " +
               format_number(*g.fnumber);
  const std::string at = shortest > 0.0 ? " at " + format_length(shortest) : std::string();
  std::string what =
      "the PSF would reach " + format_two_digits(reach) + " lambda/D from the axis" + at;
  if (spot > 0.0)
    what += " (the defocused spot's radius is " + format_two_digits(spot) + " lambda/D)";
  throw InputError(options + ": " + what + ", beyond the " + format_number(span / 2.0) +
                   " lambda/D that " + flag(Option::samples) + " " + std::to_string(spec.samples) +
                   " resolves (the sampled pupil's focal plane repeats every " +
                   format_number(span) + " lambda/D): use more samples");
}

}  // namespace

StaticPupilTerms static_pupil_terms(const Geometry& g) {
  StaticPupilTerms t;
  t.offset_x = g.source_offset_lambda_over_d[0];
  t.offset_y = g.source_offset_lambda_over_d[1];
  if (g.defocus_distance_m != 0.0) {
    t.defocus_waves = g.defocus_distance_m / g.reference_wavelength_m;
    t.fnumber = *g.fnumber;
  }
  return t;
}

void derive_sampling(const RunSpec& spec, int padded, Geometry& g) {
  const OpticsSpec& o = spec.optics;
  const int n = spec.samples;
  const double span = spec.grid == Grid::centered ? n : n - 1.0;

  require(
      o.wavelengths_text.empty() || o.band_text.empty(),
      flag(Option::wavelengths) + " and " + flag(Option::band) + ": give one spectrum, not both");
  g.spectrum = o.spectrum;
  g.reference_wavelength_m = !o.spectrum.empty() ? reference_wavelength(o.spectrum, o.wavelength_m)
                                                 : o.wavelength_m.value_or(0.0);
  if (g.spectrum.empty()) g.spectrum = {SpectralLine{g.reference_wavelength_m, 1.0}};
  g.diameter_m = o.diameter_m;
  g.fnumber = o.fnumber;
  g.pixel_pitch_m = o.pixel_pitch_m;

  const double s_physical = physical_pixel_scale(o, g);
  g.physical = s_physical > 0.0;
  if (g.physical) {
    require(std::isfinite(s_physical),
            pixel_scale_options(o, g.reference_wavelength_m) +
                ": the pixel scale overflows (it is not a finite number of lambda/D)");
    require(!spec.pad_factor && !spec.padded_size,
            flag(Option::pad_factor) + "/" + flag(Option::padded_size) +
                ": the pixel scale is already set by the physical options (" +
                format_number(s_physical) + " lambda/D); drop one of them");
    g.pixel_scale_lambda_over_d = s_physical;
    g.frame = spec.crop.value_or(128);
    // The FFT gives s = span/M: it applies where that M is an integer (to rounding).
    const double m = span / s_physical;
    const double rounded = std::round(m);
    g.padded = std::fabs(m - rounded) <= 1e-9 * m && rounded >= n && rounded <= max_padded_size
                   ? static_cast<int>(rounded)
                   : 0;
  } else {
    require(o.wavelengths_text.empty() && o.band_text.empty(),
            flag(o.band_text.empty() ? Option::wavelengths : Option::band) +
                ": a polychromatic run needs a physical pixel scale (" + flag(Option::fnumber) +
                " with " + flag(Option::pixel_pitch) + ", or " + flag(Option::diameter) + " with " +
                flag(Option::pixel_scale) + "): it is what stays fixed across wavelengths");
    g.padded = padded;
    g.pixel_scale_lambda_over_d = span / padded;
    g.frame = spec.crop.value_or(padded);
  }
  g.pad_factor = g.padded > 0 ? static_cast<double>(g.padded) / n : 0.0;
  // A diameter and a wavelength make any pixel scale an angle (docs/spec.md §6: "where known").
  if (!g.pixel_scale_arcsec && g.diameter_m && g.reference_wavelength_m > 0.0)
    g.pixel_scale_arcsec =
        g.pixel_scale_lambda_over_d * g.reference_wavelength_m / *g.diameter_m / radians_per_arcsec;

  // Phase terms in OPD need the wavelength that turns them into waves.
  if (o.aberration_units != AberrationUnits::waves) {
    require(g.reference_wavelength_m > 0.0, flag(Option::aberration_units) + " " +
                                                std::string(to_string(o.aberration_units)) +
                                                ": OPD coefficients need " + wavelength_options());
    const double unit = o.aberration_units == AberrationUnits::nm ? 1e-9 : 1e-6;
    g.waves_per_unit = unit / g.reference_wavelength_m;
  }

  require(o.oversample >= 1 && o.oversample <= max_oversample,
          flag(Option::oversample) + " " + std::to_string(o.oversample) +
              ": must be between 1 and " + std::to_string(max_oversample));
  g.oversample = o.oversample;
  if (g.physical) {
    // The shortest wavelength has the coarsest pixel in its own lambda/D.
    double coarsest = g.pixel_scale_lambda_over_d;
    for (const SpectralLine& line : g.spectrum)
      if (g.reference_wavelength_m > 0.0 && line.wavelength_m > 0.0)
        coarsest = std::max(
            coarsest, g.pixel_scale_lambda_over_d * g.reference_wavelength_m / line.wavelength_m);
    require(coarsest <= coarsest_mft_pixel(g.frame),
            pixel_scale_options(o, g.reference_wavelength_m) + ": a pixel of " +
                format_number(coarsest) + " lambda/D is too coarse: the MFT takes at most " +
                format_number(coarsest_mft_pixel(g.frame)) + " lambda/D per pixel on a " +
                std::to_string(g.frame) + "-pixel frame");
  }
  if (o.jitter) {
    g.jitter_lambda_over_d = in_lambda_over_d(*o.jitter, g, Option::jitter);
    const std::string jitter = flag(Option::jitter) + " " + format_angle(*o.jitter);
    std::string bound = format_number(max_jitter_lambda_over_d) + " lambda/D";
    if (!o.jitter->lod)  // the bound in the units the jitter was given in
      bound += " (" +
               format_angle(
                   {max_jitter_lambda_over_d * g.reference_wavelength_m / *g.diameter_m, false}) +
               " at this wavelength and diameter)";
    require(!(g.jitter_lambda_over_d > max_jitter_lambda_over_d),
            jitter + ": too large: at most " + bound);
    require(g.jitter_lambda_over_d >= 0.0, jitter + ": must be >= 0");
    require(std::isfinite(g.jitter_lambda_over_d * g.oversample / g.pixel_scale_lambda_over_d),
            jitter + ": too large for pixels of " + format_number(g.pixel_scale_lambda_over_d) +
                " lambda/D");
  }
  if (o.source_offset) {
    for (int axis = 0; axis < 2; ++axis) {
      const Angle& a = (*o.source_offset)[axis];
      const double v = in_lambda_over_d(a, g, Option::source_offset);
      require(std::isfinite(v), flag(Option::source_offset) + " " + format_angle(a) +
                                    ": not a finite number of lambda/D");
      g.source_offset_lambda_over_d[axis] = v;
    }
  }
  if (o.defocus_distance_m) derive_defocus(o, g);
  check_alias_free(spec, g);
  if (o.photons) {
    require(std::isfinite(*o.photons) && *o.photons > 0.0,
            flag(Option::photons) + " " + format_number(*o.photons) + ": must be a number > 0");
  }
  require(o.photons || (o.background == 0.0 && o.read_noise == 0.0),
          flag(Option::background) + " and " + flag(Option::read_noise) + " need " +
              flag(Option::photons) + " (the noise model's scale)");
  require(std::isfinite(o.background) && o.background >= 0.0, flag(Option::background) + " " +
                                                                  format_number(o.background) +
                                                                  ": must be >= 0 photo-electrons");
  require(std::isfinite(o.read_noise) && o.read_noise >= 0.0, flag(Option::read_noise) + " " +
                                                                  format_number(o.read_noise) +
                                                                  ": must be >= 0 electrons RMS");

  // The FFT applies to one wavelength on whole pixels at an integer M that holds the crop.
  std::string why_not_fft;
  if (!spec.train.empty()) why_not_fft = "an optical train reaches its detector by the MFT";
  else if (g.spectrum.size() > 1) why_not_fft = "a spectrum has one pixel scale per wavelength";
  else if (g.oversample > 1)
    why_not_fft = flag(Option::oversample) + " places sub-pixels between FFT samples";
  else if (g.padded == 0)
    why_not_fft = "no integer padded size M gives the pixel scale " +
                  format_number(g.pixel_scale_lambda_over_d) + " lambda/D";
  else if (g.frame > g.padded)
    why_not_fft = flag(Option::crop) + " " + std::to_string(g.frame) + " exceeds the padded size " +
                  std::to_string(g.padded);
  g.fft_applies = why_not_fft.empty();
  switch (o.propagation) {
    case Propagation::fft:
      require(why_not_fft.empty(),
              flag(Option::propagation) + " fft: " + why_not_fft + "; use mft or auto");
      g.propagation = Propagation::fft;
      break;
    case Propagation::mft: g.propagation = Propagation::mft; break;
    case Propagation::automatic:
      // The backend's own rates decide; PsfRun asks once it knows the backend.
      g.propagation = why_not_fft.empty() ? Propagation::fft : Propagation::mft;
      break;
  }
}

}  // namespace psfsim

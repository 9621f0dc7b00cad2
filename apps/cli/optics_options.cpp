#include "optics_options.hpp"

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/spectrum.hpp"

#include <array>
#include <cmath>
#include <string_view>
#include <vector>

namespace psfsim::app {
namespace {

// "X,Y": two angles or lod, as --jitter takes one; a bare number is an error naming the units.
std::array<Angle, 2> parse_source_offset(const std::string& text) {
  const std::vector<std::string_view> fields = split_fields(text);
  const std::string named = flag(Option::source_offset);
  if (fields.size() != 2)
    throw InputError(named + " '" + printable(text) +
                     "': give X,Y, two angles or lod (e.g. 3lod,-2lod or 10mas,0mas)");
  return {parse_angle(fields[0], named, true), parse_angle(fields[1], named, true)};
}

}  // namespace

void bind_options(OpticsOptions& o, OptionBindings& b) {
  b.bind(Option::wavelength, o.wavelength);
  b.bind(Option::fnumber, o.fnumber);
  b.bind(Option::pixel_pitch, o.pixel_pitch);
  b.bind(Option::diameter, o.diameter);
  b.bind(Option::pixel_scale, o.pixel_scale);
  b.bind(Option::wavelengths, o.wavelengths);
  b.bind(Option::band, o.band);
  b.bind(Option::aberration_units, o.aberration_units);
  b.bind(Option::propagation, o.propagation);
  b.bind(Option::oversample, o.oversample);
  b.bind(Option::jitter, o.jitter);
  b.bind(Option::source_offset, o.source_offset);
  b.bind(Option::defocus_distance, o.defocus_distance);
  b.bind(Option::photons, o.photons);
  b.bind(Option::background, o.background);
  b.bind(Option::read_noise, o.read_noise);
  b.bind(Option::noise_seed, o.noise_seed);
}

OpticsSpec to_optics_spec(const OpticsOptions& o) {
  OpticsSpec s;
  if (!o.wavelength.empty())
    s.wavelength_m = parse_length(o.wavelength, flag(Option::wavelength), Sign::positive);
  if (o.fnumber) {
    if (!(std::isfinite(*o.fnumber) && *o.fnumber > 0.0))
      throw InputError(flag(Option::fnumber) + " " + format_number(*o.fnumber) +
                       ": must be a number > 0");
    s.fnumber = o.fnumber;
  }
  if (!o.pixel_pitch.empty())
    s.pixel_pitch_m = parse_length(o.pixel_pitch, flag(Option::pixel_pitch), Sign::positive);
  if (!o.diameter.empty())
    s.diameter_m = parse_length(o.diameter, flag(Option::diameter), Sign::positive);
  if (!o.pixel_scale.empty())
    s.pixel_scale = parse_angle(o.pixel_scale, flag(Option::pixel_scale), true, Sign::positive);
  s.wavelengths_text = o.wavelengths;
  s.band_text = o.band;
  if (!o.wavelengths.empty())
    s.spectrum = parse_wavelengths(o.wavelengths, flag(Option::wavelengths));
  if (!o.band.empty()) s.spectrum = band_spectrum(o.band, flag(Option::band));
  s.aberration_units = *parse_aberration_units(o.aberration_units);
  s.propagation = *parse_propagation(o.propagation);
  s.oversample = o.oversample;
  if (!o.jitter.empty())
    s.jitter = parse_angle(o.jitter, flag(Option::jitter), true, Sign::non_negative);
  if (!o.source_offset.empty()) s.source_offset = parse_source_offset(o.source_offset);
  if (!o.defocus_distance.empty())
    s.defocus_distance_m = parse_length(o.defocus_distance, flag(Option::defocus_distance));
  s.photons = o.photons;
  s.background = o.background;
  s.read_noise = o.read_noise;
  if (o.noise_seed && !o.photons)
    throw InputError(flag(Option::noise_seed) + ": the seed of the noise needs " +
                     flag(Option::photons) + " (the noise model's scale)");
  s.noise_seed = o.noise_seed.value_or(0);
  return s;
}

}  // namespace psfsim::app

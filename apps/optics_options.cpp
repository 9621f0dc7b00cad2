#include "optics_options.hpp"

#include "option_checks.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/spectrum.hpp"

#include <cmath>

namespace psfsim::app {

void add_optics_options(CLI::App& run, OpticsOptions& o) {
  const std::string lengths = " (nm, um, mm or m, e.g. ";
  run.add_option("--wavelength", o.wavelength,
                 "Wavelength of a monochromatic run, and the reference of a spectrum" + lengths +
                     "550nm)")
      ->type_name("LENGTH");
  run.add_option("--fnumber", o.fnumber, "Focal ratio F; with --pixel-pitch the pixel is p/(lambda F) lambda/D")
      ->transform(finite_number())
      ->type_name("F");
  run.add_option("--pixel-pitch", o.pixel_pitch, "Detector pixel pitch, with --fnumber" + lengths + "18um)")
      ->type_name("LENGTH");
  run.add_option("--diameter", o.diameter, "Pupil diameter D, with --pixel-scale" + lengths + "6.5m)")
      ->type_name("LENGTH");
  run.add_option("--pixel-scale", o.pixel_scale,
                 "Angle per detector pixel (mas, arcsec or deg, with --diameter; or lod: lambda/D "
                 "directly), e.g. 31mas")
      ->type_name("ANGLE");
  run.add_option("--wavelengths", o.wavelengths,
                 "Spectrum: wavelengths with energy weights (normalized to sum 1; a bare "
                 "wavelength weighs 1), e.g. 500nm:1,600nm:2; needs a physical pixel scale")
      ->type_name("LAMBDA:W,...");
  run.add_option("--band", o.band,
                 "Spectrum: COUNT wavelengths evenly spaced from LMIN to LMAX, equal weights, "
                 "e.g. 500nm-600nm,5; needs a physical pixel scale")
      ->type_name("LMIN-LMAX,COUNT");
  run.add_option("--aberration-units", o.aberration_units,
                 "Units of the --zernike/--seidel/--vary/--random/--frames coefficients: waves at "
                 "the reference wavelength, or OPD in nm or um")
      ->check(one_of({"waves", "nm", "um"}))
      ->capture_default_str();
  run.add_option("--propagation", o.propagation,
                 "fft: crop of the padded FFT; mft: matrix Fourier transform at any pixel scale "
                 "and frame size; auto: the faster where both apply, else mft")
      ->check(one_of({"fft", "mft", "auto"}))
      ->capture_default_str();
  run.add_option("--oversample", o.oversample,
                 "S: compute S x S sub-pixels per detector pixel and sum them (pixel integration)")
      ->transform(integer_in(1, max_oversample))
      ->type_name("S")
      ->capture_default_str();
  run.add_option("--jitter", o.jitter,
                 "RMS pointing jitter per axis: an angle (with --diameter and a wavelength) or "
                 "lod, e.g. 5mas or 0.1lod")
      ->type_name("ANGLE");
  run.add_option("--photons", o.photons,
                 "Photo-electrons reaching the whole focal plane per frame; adds Poisson noise and "
                 "stores photo-electrons (--normalize is then ignored)")
      ->transform(finite_number())
      ->type_name("P");
  run.add_option("--background", o.background, "Background photo-electrons per pixel (with --photons)")
      ->transform(finite_number())
      ->type_name("B")
      ->capture_default_str();
  run.add_option("--read-noise", o.read_noise, "Read noise, electrons RMS per pixel (with --photons)")
      ->transform(finite_number())
      ->type_name("R")
      ->capture_default_str();
  run.add_option("--noise-seed", o.noise_seed,
                 "Seed of the noise: the same seed gives the same noise on every backend, "
                 "chunking and machine: a decimal integer from 0 to 18446744073709551615 "
                 "(2^64 - 1; default 0)")
      ->transform(seed_digits())
      ->type_name("SEED");
}

OpticsSpec to_optics_spec(const OpticsOptions& o) {
  OpticsSpec s;
  if (!o.wavelength.empty())
    s.wavelength_m = parse_length(o.wavelength, "--wavelength", Sign::positive);
  if (o.fnumber) {
    if (!(std::isfinite(*o.fnumber) && *o.fnumber > 0.0))
      throw InputError("--fnumber " + format_number(*o.fnumber) + ": must be a number > 0");
    s.fnumber = o.fnumber;
  }
  if (!o.pixel_pitch.empty())
    s.pixel_pitch_m = parse_length(o.pixel_pitch, "--pixel-pitch", Sign::positive);
  if (!o.diameter.empty()) s.diameter_m = parse_length(o.diameter, "--diameter", Sign::positive);
  if (!o.pixel_scale.empty())
    s.pixel_scale = parse_angle(o.pixel_scale, "--pixel-scale", true, Sign::positive);
  s.wavelengths_text = o.wavelengths;
  s.band_text = o.band;
  if (!o.wavelengths.empty()) s.spectrum = parse_wavelengths(o.wavelengths, "--wavelengths");
  if (!o.band.empty()) s.spectrum = band_spectrum(o.band, "--band");
  s.aberration_units = *parse_aberration_units(o.aberration_units);
  s.propagation = *parse_propagation(o.propagation);
  s.oversample = o.oversample;
  if (!o.jitter.empty()) s.jitter = parse_angle(o.jitter, "--jitter", true, Sign::non_negative);
  s.photons = o.photons;
  s.background = o.background;
  s.read_noise = o.read_noise;
  if (o.noise_seed && !o.photons)
    throw InputError("--noise-seed: the seed of the noise needs --photons (the noise model's scale)");
  s.noise_seed = o.noise_seed.value_or(0);
  return s;
}

}  // namespace psfsim::app

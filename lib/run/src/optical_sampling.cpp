#include "optical_sampling.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/units.hpp"

namespace psfsim {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
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
    return "--fnumber " + format_number(o.fnumber.value_or(0.0)) + " and --pixel-pitch " +
           format_length(o.pixel_pitch_m.value_or(0.0)) + " at " + wavelength;
  const std::string scale = "--pixel-scale " + format_angle(*o.pixel_scale);
  if (o.pixel_scale->lod) return scale;
  return scale + " at --diameter " + format_length(o.diameter_m.value_or(0.0)) + " and " +
         wavelength;
}

// Radians to λ_ref/D: needs both, else the option must be given in lod.
double in_lambda_over_d(const Angle& a, const Geometry& g, const char* option) {
  if (a.lod) return a.value;
  require(g.diameter_m && g.reference_wavelength_m > 0.0,
          std::string(option) + " " + format_angle(a) +
              ": an angle needs --diameter and a wavelength; or give it in lod");
  return a.value * *g.diameter_m / g.reference_wavelength_m;
}

// The physical pixel scale in λ_ref/D, or 0 when none is given.
double physical_pixel_scale(const OpticsSpec& o, Geometry& g) {
  const double lambda = g.reference_wavelength_m;
  if (o.pixel_scale) {
    require(!o.fnumber && !o.pixel_pitch_m,
            "--pixel-scale and --fnumber/--pixel-pitch: give one pixel scale, not both");
    if (o.pixel_scale->lod) return o.pixel_scale->value;
    g.pixel_scale_arcsec = o.pixel_scale->value / radians_per_arcsec;
    require(o.diameter_m.has_value(), "--pixel-scale " + format_angle(*o.pixel_scale) +
                                          ": an angle per pixel needs --diameter (or give lod)");
    require(lambda > 0.0, "--pixel-scale " + format_angle(*o.pixel_scale) +
                              ": an angle per pixel needs --wavelength, --wavelengths or --band");
    return o.pixel_scale->value * *o.diameter_m / lambda;
  }
  if (o.fnumber || o.pixel_pitch_m) {
    require(o.fnumber && o.pixel_pitch_m, "--fnumber and --pixel-pitch: give both");
    require(lambda > 0.0, "--fnumber and --pixel-pitch need --wavelength, --wavelengths or --band");
    if (o.diameter_m)
      g.pixel_scale_arcsec = *o.pixel_pitch_m / (*o.fnumber * *o.diameter_m) / radians_per_arcsec;
    return *o.pixel_pitch_m / (lambda * *o.fnumber);
  }
  return 0.0;
}

}  // namespace

Propagation faster_propagation(const std::string& backend, int samples, int padded, int frame,
                               CpuVectorUnits cpu) {
  const double n = samples, m = padded, k = frame;
  const double transform = m * std::log2(m) * 5.0;  // real operations of one length-M FFT
  const double products = (n * n * k + n * k * k) * 8.0;  // the MFT's two complex products
  if (backend == "cuda") {
    // cuFFT transforms the whole M x M plane (N columns, then M rows) bound by memory, while
    // cuBLAS runs the products near peak and each call's copy overlaps the next call: 16x
    // the FFT's rate per operation (H200, bench/propagation-grid.sh, 2026-12-01: the MFT is
    // the faster on all of N 32-256, K 16-128, by 8% at N = 64, K = 128, the closest).
    return products / 16.0 < (n + m) * transform ? Propagation::mft : Propagation::fft;
  }
  // FFTW transforms N columns and only the K rows of the crop. OpenBLAS's complex products
  // run `rate` times as fast per operation, and two BLAS calls and the intensity cost each
  // MFT frame about what `per_frame` of its operations do (bench/propagation-grid.sh, B = 64,
  // float, docs/performance.md). Debian's FFTW runs AVX at most, OpenBLAS AVX-512 where the
  // CPU has it (psfsim/cpu/blas_kernels.hpp):
  //   2-core EPYC, AVX2: 3x (180 against 60 GOP/s), 3e5 (5 us);
  //   2-core Emerald Rapids Xeon, AVX-512: 6.5x, 1.5e5.
  const double rate = cpu.avx512 ? 6.5 : 3.0;
  const double per_frame = cpu.avx512 ? 1.5e5 : 3e5;
  return products / rate + per_frame < (n + k) * transform ? Propagation::mft
                                                           : Propagation::fft;
}

void derive_sampling(const RunSpec& spec, int padded, Geometry& g) {
  const OpticsSpec& o = spec.optics;
  const int n = spec.samples;
  const double span = spec.grid == Grid::centered ? n : n - 1.0;

  require(o.wavelengths_text.empty() || o.band_text.empty(),
          "--wavelengths and --band: give one spectrum, not both");
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
            "--pad-factor/--padded-size: the pixel scale is already set by the physical options "
            "(" + format_number(s_physical) + " lambda/D); drop one of them");
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
            std::string(o.band_text.empty() ? "--wavelengths" : "--band") +
                ": a polychromatic run needs a physical pixel scale (--fnumber with "
                "--pixel-pitch, or --diameter with --pixel-scale): it is what stays fixed across "
                "wavelengths");
    g.padded = padded;
    g.pixel_scale_lambda_over_d = span / padded;
    g.frame = spec.crop.value_or(padded);
  }
  g.pad_factor = g.padded > 0 ? static_cast<double>(g.padded) / n : 0.0;
  // A diameter and a wavelength make any pixel scale an angle (docs/spec.md §6: "where known").
  if (!g.pixel_scale_arcsec && g.diameter_m && g.reference_wavelength_m > 0.0)
    g.pixel_scale_arcsec = g.pixel_scale_lambda_over_d * g.reference_wavelength_m /
                           *g.diameter_m / radians_per_arcsec;

  // Phase terms in OPD need the wavelength that turns them into waves.
  if (o.aberration_units != AberrationUnits::waves) {
    require(g.reference_wavelength_m > 0.0,
            "--aberration-units " + std::string(to_string(o.aberration_units)) +
                ": OPD coefficients need --wavelength, --wavelengths or --band");
    const double unit = o.aberration_units == AberrationUnits::nm ? 1e-9 : 1e-6;
    g.waves_per_unit = unit / g.reference_wavelength_m;
  }

  require(o.oversample >= 1 && o.oversample <= max_oversample,
          "--oversample " + std::to_string(o.oversample) + ": must be between 1 and " +
              std::to_string(max_oversample));
  g.oversample = o.oversample;
  if (g.physical) {
    // The shortest wavelength has the coarsest pixel in its own lambda/D.
    double coarsest = g.pixel_scale_lambda_over_d;
    for (const SpectralLine& line : g.spectrum)
      if (g.reference_wavelength_m > 0.0 && line.wavelength_m > 0.0)
        coarsest = std::max(coarsest, g.pixel_scale_lambda_over_d * g.reference_wavelength_m /
                                          line.wavelength_m);
    require(coarsest <= coarsest_mft_pixel(g.frame),
            pixel_scale_options(o, g.reference_wavelength_m) + ": a pixel of " +
                format_number(coarsest) + " lambda/D is too coarse: the MFT takes at most " +
                format_number(coarsest_mft_pixel(g.frame)) + " lambda/D per pixel on a " +
                std::to_string(g.frame) + "-pixel frame");
  }
  if (o.jitter) {
    g.jitter_lambda_over_d = in_lambda_over_d(*o.jitter, g, "--jitter");
    std::string bound = format_number(max_jitter_lambda_over_d) + " lambda/D";
    if (!o.jitter->lod)  // the bound in the units the jitter was given in
      bound += " (" + format_angle({max_jitter_lambda_over_d * g.reference_wavelength_m /
                                        *g.diameter_m, false}) +
               " at this wavelength and diameter)";
    require(!(g.jitter_lambda_over_d > max_jitter_lambda_over_d),
            "--jitter " + format_angle(*o.jitter) + ": too large: at most " + bound);
    require(g.jitter_lambda_over_d >= 0.0, "--jitter " + format_angle(*o.jitter) +
                                               ": must be >= 0");
    require(std::isfinite(g.jitter_lambda_over_d * g.oversample / g.pixel_scale_lambda_over_d),
            "--jitter " + format_angle(*o.jitter) + ": too large for pixels of " +
                format_number(g.pixel_scale_lambda_over_d) + " lambda/D");
  }
  if (o.photons) {
    require(std::isfinite(*o.photons) && *o.photons > 0.0,
            "--photons " + format_number(*o.photons) + ": must be a number > 0");
  }
  require(o.photons || (o.background == 0.0 && o.read_noise == 0.0),
          "--background and --read-noise need --photons (the noise model's scale)");
  require(std::isfinite(o.background) && o.background >= 0.0,
          "--background " + format_number(o.background) + ": must be >= 0 photo-electrons");
  require(std::isfinite(o.read_noise) && o.read_noise >= 0.0,
          "--read-noise " + format_number(o.read_noise) + ": must be >= 0 electrons RMS");

  // The FFT applies to one wavelength on whole pixels at an integer M that holds the crop.
  std::string why_not_fft;
  if (g.spectrum.size() > 1) why_not_fft = "a spectrum has one pixel scale per wavelength";
  else if (g.oversample > 1) why_not_fft = "--oversample places sub-pixels between FFT samples";
  else if (g.padded == 0)
    why_not_fft = "no integer padded size M gives the pixel scale " +
                  format_number(g.pixel_scale_lambda_over_d) + " lambda/D";
  else if (g.frame > g.padded)
    why_not_fft = "--crop " + std::to_string(g.frame) + " exceeds the padded size " +
                  std::to_string(g.padded);
  g.fft_applies = why_not_fft.empty();
  switch (o.propagation) {
    case Propagation::fft:
      require(why_not_fft.empty(), "--propagation fft: " + why_not_fft + "; use mft or auto");
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

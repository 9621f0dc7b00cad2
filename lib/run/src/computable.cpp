#include "computable.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "psfsim/detector.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"
#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/units.hpp"

namespace psfsim {
namespace {

// A limit as a message gives it: two significant digits, rounded down.
std::string limit_text(double limit) {
  const double unit = std::pow(10.0, std::floor(std::log10(limit)) - 1);
  const double digits = std::floor(limit / unit);
  if (unit >= 1.0 && unit < 1e12) return std::to_string(static_cast<long long>(digits * unit));
  return format_two_digits(digits * unit);
}

// The MFT's kernel exp(-2 pi i theta xi) is reduced exactly only while theta xi stays below
// 2^28 waves (cpu/src/mft_propagator.cpp; |xi| <= 1/2): a pixel scale that puts the frame's
// edge 2^29 lambda/D off axis, at the shortest wavelength, is refused here rather than by
// the backend.
void check_mft_reach(const RunSpec& spec, const Geometry& g) {
  if (g.fft_applies && spec.optics.propagation != Propagation::mft) return;
  const OpticsSpec& o = spec.optics;
  const double shortest = shortest_wavelength(g);
  const double largest_ratio =  // lambda_ref / lambda_k
      g.reference_wavelength_m > 0.0 && shortest > 0.0 ? g.reference_wavelength_m / shortest : 1.0;
  const double sub = g.oversample;
  const double centre = sub * (g.frame / 2) + (sub - 1) / 2.0;  // as make_plan places it
  const double farthest = std::max(centre, sub * g.frame - 1 - centre);
  const double reach = g.pixel_scale_lambda_over_d * largest_ratio / sub * farthest;
  if (reach < 0x1p29) return;
  std::string option = flag(Option::crop) + " " + std::to_string(g.frame);
  if (o.pixel_scale) option = flag(Option::pixel_scale) + " " + format_angle(*o.pixel_scale);
  else if (o.fnumber && o.pixel_pitch_m)
    option = flag(Option::fnumber) + " " + format_number(*o.fnumber) + " " +
             flag(Option::pixel_pitch) + " " + format_length(*o.pixel_pitch_m);
  throw InputError(
      option + ": the frame's edge lies " + format_two_digits(reach) + " lambda/D off axis" +
      (largest_ratio > 1.0 ? " at " + format_length(shortest) + " (the shortest wavelength)" : "") +
      ", beyond the 2^29 = 536870912 lambda/D the MFT computes");
}

// Every frame's phase polynomial must evaluate to phase_resolution_waves in double (both
// precisions evaluate it so), at the run's shortest wavelength, where its waves are most;
// --random's frames are bounded by their largest draws.
void check_phase_rounding(const RunSpec& spec, const Geometry& g) {
  const double shortest = shortest_wavelength(g);
  const double channel_scale =
      g.reference_wavelength_m > 0.0 && shortest > 0.0 ? g.reference_wavelength_m / shortest : 1.0;
  const double scale = g.waves_per_unit * channel_scale;  // the terms' units to waves there
  const auto refuse = [&](const Aberration& frame, double rounding, std::size_t index) {
    const ZernikeTerm* worst = nullptr;
    for (const auto& t : frame.zernike)
      if (worst == nullptr || zernike_rounding(t.j) * std::fabs(t.waves) >
                                  zernike_rounding(worst->j) * std::fabs(worst->waves))
        worst = &t;
    std::string source = flag(Option::zernike) + "/" + flag(Option::seidel);
    if (spec.drawn) source = flag(Option::random) + " " + spec.random;
    else if (!spec.vary.empty()) source = flag(Option::vary) + " " + spec.vary;
    else if (!spec.frames_file.empty()) source = flag(Option::frames) + " " + spec.frames_file;
    bool fixed = false;  // the worst term is a --zernike the user wrote
    if (worst != nullptr && !spec.drawn)
      for (const auto& written : spec.fixed_terms.zernike) {
        const Aberration noll = to_noll(Aberration{{}, {written}}, spec.zernike);
        if (noll.zernike.front().j == worst->j && noll.zernike.front().waves == worst->waves) {
          source = flag(Option::zernike) + " " + to_string(written);
          fixed = true;
        }
      }
    const std::string term = worst != nullptr ? "Noll Z" + std::to_string(worst->j) : "";
    std::string what = "the phase";
    if (spec.drawn && worst != nullptr)
      what = "a frame's phase, with draws up to " + format_two_digits(max_normal_draw) +
             " sigma (" + term + " at " + limit_text(std::fabs(worst->waves)) + " " +
             std::string(to_string(spec.optics.aberration_units)) + "),";
    else if (batch_size(spec) > 1)
      what = "frame " + std::to_string(index) + "'s phase" +
             (worst != nullptr && !fixed
                  ? " (" + term + " at " + format_number(worst->waves) + " " +
                        std::string(to_string(spec.optics.aberration_units)) + ")"
                  : "");
    const std::string units(to_string(spec.optics.aberration_units));
    std::string text =
        source + ": " + what + " rounds by up to " + limit_text(rounding) + " waves in double" +
        (channel_scale != 1.0 ? " at " + format_length(shortest) + " (the shortest wavelength)"
                              : "") +
        ", beyond the " + format_number(phase_resolution_waves) +
        " waves psfsim computes phases to";
    if (worst != nullptr)
      text += ": " + term + " takes at most " +
              limit_text(phase_resolution_waves / (zernike_rounding(worst->j) * scale)) + " " +
              units;
    throw InputError(text);
  };
  if (spec.drawn) {
    const RandomAberrationDraws draws(*spec.drawn);
    // Each drawn term's sigma, as RandomAberrationDraws gives it: rms^2 shared among the terms.
    const double sigma =
        spec.drawn->random.rms / std::sqrt(static_cast<double>(draws.ids().size()));
    Aberration frame = spec.drawn->fixed;
    for (const TermId& id : draws.ids()) set_term(frame, id, max_normal_draw * sigma);
    const double rounding = phase_rounding(frame) * scale;
    if (rounding > phase_resolution_waves) refuse(frame, rounding, 0);
    return;
  }
  for (std::size_t f = 0; f < spec.frames.size(); ++f) {
    const double rounding = phase_rounding(spec.frames[f]) * scale;
    if (rounding > phase_resolution_waves) refuse(spec.frames[f], rounding, f);
  }
}

}  // namespace

double shortest_wavelength(const Geometry& g) {
  double shortest = 0.0;
  for (const SpectralLine& line : g.spectrum)
    if (line.wavelength_m > 0.0)
      shortest = shortest > 0.0 ? std::min(shortest, line.wavelength_m) : line.wavelength_m;
  return shortest;
}

void check_computable(const RunSpec& spec, const Geometry& g) {
  check_phase_rounding(spec, g);
  check_mft_reach(spec, g);
  if (spec.optics.photons) {
    // A pixel of s lambda/D holds at most s^2 (N d)^2 of the photons (d: the sample spacing
    // in D), where (sum A)^2 / sum A^2 is at its largest, N^2 (docs/physical-optics.md).
    const double nd = spec.grid == Grid::centered ? 1.0 : spec.samples / (spec.samples - 1.0);
    const double s = g.pixel_scale_lambda_over_d;
    check_count_range(spec.optics, spec.precision, s * s * nd * nd);
  }
}

// A spectrum's frame is sum_k w_k (lambda_ref/lambda_k)^2 |E_k|^2, each |E_k| at most
// sum |A| on S x S sub-pixels a pixel: over many decades of wavelength the weights alone
// pass the precision's range, which the backend would find only in the frames.
void check_spectrum_range(const RunSpec& spec, const PsfPlan& p) {
  if (p.channels.size() < 2) return;
  const SampledPupil& facts = *p.pupil;
  double amplitude = facts.aperture_sum;  // sum |A| of the largest map
  if (!facts.amplitude.empty()) {
    const std::size_t plane = facts.amplitude.size() / facts.amplitude_maps;
    for (std::size_t f = 0; f < facts.amplitude_maps; ++f) {
      double sum = 0.0;
      for (std::size_t i = 0; i < plane; ++i) sum += std::fabs(facts.amplitude[f * plane + i]);
      amplitude = std::max(amplitude, sum);
    }
  }
  double weights = 0.0;
  for (const SpectralChannel& c : p.channels) weights += c.weight;
  const double sub = spec.optics.oversample;
  const double peak = weights * (sub * amplitude) * (sub * amplitude);
  const double most = spec.precision == Precision::single ? std::numeric_limits<float>::max()
                                                          : std::numeric_limits<double>::max();
  if (peak <= most) return;
  const OpticsSpec& o = spec.optics;
  std::string option =
      !o.band_text.empty() ? flag(Option::band) + " " + o.band_text : flag(Option::wavelengths);
  if (o.band_text.empty() && o.wavelengths_text.size() <= 60) option += " " + o.wavelengths_text;
  throw InputError(option +
                   ": the wavelengths' frame weights w_k (lambda_ref/lambda_k)^2 sum "
                   "to " +
                   format_two_digits(weights) + ", and a frame up to " + format_two_digits(peak) +
                   ", more than " + std::string(to_string(spec.precision)) + " precision holds" +
                   (spec.precision == Precision::single
                        ? " (use " + flag(Option::precision) + " double, or"
                        : std::string(" (use")) +
                   " a spectrum over fewer decades)");
}

}  // namespace psfsim

#include "psfsim/config_text.hpp"

#include "psfsim/run_plan.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/units.hpp"

#include <cstdint>
#include <sstream>

namespace psfsim {
namespace {

template <typename Term>
std::string toml_array(const std::vector<Term>& terms) {
  std::string out = "[";
  for (std::size_t i = 0; i < terms.size(); ++i)
    out += (i ? ", " : "") + toml_string(to_string(terms[i]));
  return out + "]";
}

void write_optics(std::ostream& t, const OpticsSpec& o) {
  const auto quoted = [&](const char* key, const std::string& text) {
    t << key << " = " << toml_string(text) << "\n";
  };
  if (o.wavelength_m) quoted("wavelength", format_length(*o.wavelength_m));
  if (o.fnumber) t << "fnumber = " << format_number(*o.fnumber) << "\n";
  if (o.pixel_pitch_m) quoted("pixel-pitch", format_length(*o.pixel_pitch_m));
  if (o.diameter_m) quoted("diameter", format_length(*o.diameter_m));
  if (o.pixel_scale) quoted("pixel-scale", format_angle(*o.pixel_scale));
  if (!o.wavelengths_text.empty()) quoted("wavelengths", o.wavelengths_text);
  if (!o.band_text.empty()) quoted("band", o.band_text);
  quoted("aberration-units", std::string(to_string(o.aberration_units)));
  quoted("propagation", std::string(to_string(o.propagation)));
  t << "oversample = " << o.oversample << "\n";
  if (o.jitter) quoted("jitter", format_angle(*o.jitter));
  if (o.photons) {
    t << "photons = " << format_number(*o.photons) << "\n";
    t << "background = " << format_number(o.background) << "\n";
    t << "read-noise = " << format_number(o.read_noise) << "\n";
    // TOML's integers stop at 2^63 - 1; a larger seed is written as its digits, in quotes,
    // which the noise-seed key also reads.
    const std::string seed = std::to_string(o.noise_seed);
    t << "noise-seed = "
      << (o.noise_seed > static_cast<std::uint64_t>(INT64_MAX) ? toml_string(seed) : seed) << "\n";
  }
}

void write_metrics(std::ostream& t, const MetricsSpec& m) {
  if (!m.metrics.empty()) {
    std::string names;
    for (Metric metric : m.metrics)
      names += (names.empty() ? "" : ",") + std::string(to_string(metric));
    t << "metrics = " << toml_string(names) << "\n";
    t << "ee-radii = " << toml_string(format_number_list(m.ee_radii)) << "\n";
    t << "mtf-frequencies = " << toml_string(format_number_list(m.mtf_frequencies)) << "\n";
  }
  t << "store = " << toml_string(std::string(to_string(m.resolved_store()))) << "\n";
}

void write_aperture(std::ostream& t, const ApertureSpec& a) {
  if (a.spiders) t << "spiders = " << toml_string(to_string(*a.spiders)) << "\n";
  if (a.hex_segments) t << "hex-segments = " << toml_string(to_string(*a.hex_segments)) << "\n";
  if (!a.amplitude.empty()) t << "pupil-amplitude = " << toml_string(a.amplitude) << "\n";
  if (!a.opd.empty()) t << "pupil-opd = " << toml_string(a.opd) << "\n";
  if (!a.opd.empty() || a.opd_units != AberrationUnits::waves)
    t << "opd-units = " << toml_string(std::string(to_string(a.opd_units))) << "\n";
}

}  // namespace

std::string to_toml(const RunSpec& spec) {
  const Geometry g = geometry(spec);
  std::ostringstream t;
  t << "[run]\n";
  t << "backend = " << toml_string(spec.backend) << "\n";
  t << "precision = " << toml_string(std::string(to_string(spec.precision))) << "\n";
  t << "samples = " << spec.samples << "\n";
  // A physical pixel scale sets the sampling itself: padding options would contradict it.
  if (!g.physical) t << "padded-size = " << g.padded << "\n";
  write_optics(t, spec.optics);
  t << "grid = " << toml_string(std::string(to_string(spec.grid))) << "\n";
  const Aberration& first = spec.fixed_terms;
  // CLI11 rejects an empty array for an option, so absent terms are absent keys.
  if (!first.seidel.empty()) t << "seidel = " << toml_array(first.seidel) << "\n";
  if (!first.zernike.empty()) t << "zernike = " << toml_array(first.zernike) << "\n";
  // The terms above, --vary, --random and --frames are as written, under this convention.
  t << "zernike-order = " << toml_string(std::string(to_string(spec.zernike.order))) << "\n";
  t << "zernike-norm = " << toml_string(std::string(to_string(spec.zernike.norm))) << "\n";
  t << "obscuration = " << format_number(spec.obscuration) << "\n";
  write_aperture(t, spec.aperture);
  t << "normalize = " << toml_string(std::string(to_string(spec.normalization))) << "\n";
  if (!spec.vary.empty()) t << "vary = " << toml_string(spec.vary) << "\n";
  if (!spec.random.empty()) t << "random = " << toml_string(spec.random) << "\n";
  if (!spec.frames_file.empty()) t << "frames = " << toml_string(spec.frames_file) << "\n";
  if (spec.crop) t << "crop = " << *spec.crop << "\n";
  write_metrics(t, spec.metrics);
  t << "repeat = " << spec.repeat << "\n";
  t << "threads = " << spec.threads << "\n";
  t << "device = " << spec.device << "\n";
  t << "fft-effort = " << toml_string(std::string(to_string(spec.fft_effort))) << "\n";
  if (spec.stage_timing) t << "stage-timing = true\n";
  t << "compression = " << toml_string(spec.compression) << "\n";
  if (spec.chunk_frames > 0) t << "chunk-frames = " << spec.chunk_frames << "\n";
  if (!spec.wisdom.empty()) t << "wisdom = " << toml_string(spec.wisdom) << "\n";
  t << "output = " << toml_string(spec.output.string()) << "\n";
  return t.str();
}

std::string quote_command_line(int argc, const char* const* argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    const bool plain = !a.empty() && a.find_first_not_of(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:+@%") ==
        std::string::npos;
    if (i) out += ' ';
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

}  // namespace psfsim

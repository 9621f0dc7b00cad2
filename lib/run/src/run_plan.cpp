#include "psfsim/option_table.hpp"
#include "psfsim/run_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "computable.hpp"
#include "psfsim/compression.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "metrics_plan.hpp"
#include "optical_sampling.hpp"

namespace psfsim {
namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw InputError(message);
}

int padded_size_of(const RunSpec& spec) {
  if (spec.padded_size) return *spec.padded_size;
  const double q = spec.pad_factor.value_or(default_pad_factor);
  return static_cast<int>(std::lround(q * spec.samples));
}

// --wisdom is read before planning and replaced after it: a folder, a device or a FIFO there
// is refused before any work rather than failing once the plans are made.
void validate_wisdom_path(const std::string& path) {
  if (path.empty() || path == "none") return;
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);  // through links
  if (st.type() == std::filesystem::file_type::not_found) return;             // the run creates it
  const std::string named = flag(Option::wisdom) + " " + path;
  require(!ec, named + ": " + ec.message());
  require(!std::filesystem::is_directory(st),
          named + ": is a folder; name a file in it, e.g. " +
              (std::filesystem::path(path) / "fftw-wisdom").string());
  require(std::filesystem::is_regular_file(st), named + ": not a regular file");
}

// Every frame's field point inside the table's hull, before any work; the message names the
// first point outside it. Frames of a batch often share points: each is looked up once.
void validate_field_points(const RunSpec& spec) {
  if (!spec.field.table) return;
  const auto check = [&](const Aberration& frame) {
    (void)spec.field.table->at(frame.field.value_or(FieldPoint{}));
  };
  if (spec.drawn) return check(spec.drawn->fixed);
  std::optional<FieldPoint> last;
  for (const Aberration& frame : spec.frames) {
    if (last && frame.field == last) continue;
    check(frame);
    last = frame.field;
  }
}

}  // namespace

std::string wisdom_cache_path() {
  const auto absolute = [](const char* folder) {
    return folder != nullptr && folder[0] == '/' ? std::string(folder) : std::string();
  };
  std::string base = absolute(std::getenv("XDG_CACHE_HOME"));
  if (base.empty()) {
    const std::string home = absolute(std::getenv("HOME"));
    if (home.empty()) return {};
    base = home + "/.cache";
  }
  return base + "/psfsim/fftw-wisdom";
}

void validate(const RunSpec& spec) {
  check_bounds(Option::samples, spec.samples);
  require(!(spec.pad_factor && spec.padded_size), flag(Option::pad_factor) + " and " +
                                                      flag(Option::padded_size) +
                                                      ": give one or the other, not both");
  if (spec.pad_factor) {
    const double q = *spec.pad_factor;
    const std::string named = flag(Option::pad_factor) + " " + format_number(q);
    require(std::isfinite(q) && q >= 1.0, named + ": must be a finite number >= 1");
    require(q * spec.samples <= max_padded_size,
            named + ": too large: at most " +
                format_number(max_padded_size / static_cast<double>(spec.samples)) + " at " +
                flag(Option::samples) + " " + std::to_string(spec.samples) +
                " (M = round(Q*N) at most " + std::to_string(max_padded_size) + ")");
  }
  if (spec.padded_size) {
    const std::string named = flag(Option::padded_size) + " " + std::to_string(*spec.padded_size);
    require(*spec.padded_size >= spec.samples, named + ": must be at least " +
                                                   flag(Option::samples) + " (" +
                                                   std::to_string(spec.samples) + ")");
    require(*spec.padded_size <= max_padded_size,
            named + ": must be at most " + std::to_string(max_padded_size));
  }
  if (spec.crop) check_bounds(Option::crop, *spec.crop);
  const Geometry g = geometry(spec);  // the sampling options' own checks
  validate_aperture(spec.aperture, g.reference_wavelength_m);
  require(
      std::isfinite(spec.obscuration) && spec.obscuration >= 0.0 && spec.obscuration < 1.0,
      flag(Option::obscuration) + " " + format_number(spec.obscuration) + ": must be in [0, 1)");
  check_bounds(Option::repeat, spec.repeat);
  require(spec.threads >= 0 && spec.threads <= max_threads,
          flag(Option::threads) + " " + std::to_string(spec.threads) +
              ": must be between 0 (psfsim chooses) and " + std::to_string(max_threads));
  check_bounds(Option::chunk_frames, spec.chunk_frames);
  require(spec.device >= 0,
          flag(Option::device) + " " + std::to_string(spec.device) + ": must be >= 0");
  require(batch_size(spec) > 0, "no frames to compute");
  require(!spec.drawn || spec.frames.empty(), "frames both drawn and listed");
  (void)parse_compression(spec.compression);
  validate_wisdom_path(spec.wisdom);
  validate_metrics(spec, g);
  require((spec.vary.empty() ? 0 : 1) + (spec.random.empty() ? 0 : 1) +
                  (spec.frames_file.empty() ? 0 : 1) + (spec.field.grid_text.empty() ? 0 : 1) <=
              1,
          flag(Option::vary) + ", " + flag(Option::random) + ", " + flag(Option::frames) + " and " +
              flag(Option::field_grid) + ": give at most one way to define the frames");
  validate_field_points(spec);
  // Messages only on failure: a batch can hold millions of terms.
  for (const auto& frame : spec.frames) {
    for (const auto& t : frame.seidel)
      if (!(std::isfinite(t.waves) && t.m >= 0 && t.l >= t.m && t.l <= max_seidel_power))
        throw InputError(flag(Option::seidel) + " " + to_string(t) + ": out of range");
    for (const auto& t : frame.zernike)
      if (!(std::isfinite(t.waves) && t.j >= 1))
        throw InputError(flag(Option::zernike) + " " + to_string(t) + ": out of range");
  }
  require(spec.train.empty() || !g.detector_stage(spec.optics) || spec.optics.photons ||
              spec.normalization != Normalization::peak,
          flag(Option::normalize) +
              " peak: an optical train's contrast is normalized by the "
              "backend, before " +
              flag(Option::oversample) + " and " + flag(Option::jitter) +
              " (use --normalize none or sum with them)");
  require(!spec.frames_on_device ||
              !(spec.metrics.has(Metric::contrast) || spec.metrics.has(Metric::throughput)),
          "frames kept on the device cannot give contrast or throughput, which the host "
          "computes from the frames");
  require(!spec.frames_on_device || !g.detector_stage(spec.optics),
          "frames kept on the device cannot pass the detector stage (" + flag(Option::oversample) +
              ", " + flag(Option::jitter) + ", " + flag(Option::photons) +
              "), which runs on the host");
  check_computable(spec, g);
}

Geometry geometry(const RunSpec& spec) {
  Geometry g;
  g.samples = spec.samples;
  derive_sampling(spec, padded_size_of(spec), g);
  return g;
}

PsfPlan make_plan(const RunSpec& spec, int max_batch) {
  return make_plan(spec, geometry(spec), max_batch);
}

PsfPlan make_plan(const RunSpec& spec, const Geometry& g, int max_batch) {
  PsfPlan p;
  p.samples = g.samples;
  p.padded = g.padded > 0 ? g.padded : g.samples;  // the MFT has no M; the sampled pupil needs one
  p.grid = spec.grid;
  p.precision = spec.precision;
  p.obscuration = spec.obscuration;
  // The detector stage normalizes after binning and jitter; the backend then gives |E|^2.
  p.normalization = g.detector_stage(spec.optics) ? Normalization::none : spec.normalization;
  p.frame = g.computed_frame();
  p.propagation = g.propagation;
  if (g.propagation == Propagation::mft) {
    // Sub-pixel j of pixel k sits at (k - floor(K/2)) s + (j - (S-1)/2) s/S (docs/spec.md §6).
    const int sub = g.oversample;
    p.pixel_centre = sub * (g.frame / 2) + (sub - 1) / 2.0;
    p.channels.clear();
    const double ref = g.reference_wavelength_m;
    const auto weights = spectral_frame_weights(g.spectrum, ref > 0.0 ? ref : 1.0);
    for (std::size_t k = 0; k < g.spectrum.size(); ++k) {
      const double ratio = ref > 0.0 ? ref / g.spectrum[k].wavelength_m : 1.0;  // s_k / s_ref
      p.channels.push_back(SpectralChannel{g.pixel_scale_lambda_over_d * ratio / sub, ratio,
                                           ref > 0.0 ? weights[k] : 1.0});
    }
  }
  p.max_batch = max_batch;
  p.threads = spec.threads;
  p.device = spec.device;
  if (spec.wisdom.empty()) {
    p.fftw_wisdom = wisdom_cache_path();
    p.fftw_wisdom_is_cache = true;
  } else if (spec.wisdom != "none") {
    p.fftw_wisdom = spec.wisdom;
  }
  p.fft_effort = spec.fft_effort;
  p.run_frames = batch_size(spec) * static_cast<std::size_t>(std::max(1, spec.repeat));
  p.stage_timing = spec.stage_timing;
  p.frames_on_device = spec.frames_on_device;
  p.untimed = spec.untimed && !spec.stage_timing;
  PupilMapUse use;
  use.precision = spec.precision;
  use.shortest_wavelength_m = shortest_wavelength(g);
  use.amplitude_scale_cancels =
      spec.normalization != Normalization::none || spec.optics.photons.has_value();
  use.oversample = g.oversample;
  p.pupil = std::make_shared<const SampledPupil>(
      p.samples, p.padded, p.grid, p.obscuration, spec.aperture, g.reference_wavelength_m,
      spec.whole_batch > 0 ? spec.whole_batch : batch_size(spec), use, static_pupil_terms(g));
  if (p.pupil->amplitude_maps > 1 &&
      (spec.normalization == Normalization::peak || spec.optics.photons))
    throw InputError(flag(Option::pupil_amplitude) + ": one amplitude map per frame needs " +
                     flag(Option::normalize) + " none or sum and no " + flag(Option::photons) +
                     " (both take one aperture's sum of A)");
  check_spectrum_range(spec, p);
  if (!spec.train.empty()) {
    TrainSampling ts;
    ts.samples = p.samples;
    for (const SpectralChannel& c : p.channels) ts.wavelength_ratios.push_back(c.phase_scale);
    ts.diameter_m = g.diameter_m.value_or(0.0);
    ts.reference_wavelength_m = g.reference_wavelength_m;
    p.train = make_train_plan(spec.train, ts, *p.pupil);
  }
  p.metrics = make_metrics_plan(spec, g, p);
  return p;
}

}  // namespace psfsim

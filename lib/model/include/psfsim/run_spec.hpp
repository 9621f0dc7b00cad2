#pragma once
// One `psfsim run`, as the user asked for it: filled from the CLI and config file, then
// validated once and turned into a PsfPlan for the backend and metadata for the writer
// (run_plan.hpp, in the run layer).
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "psfsim/aperture_spec.hpp"
#include "psfsim/enums.hpp"
#include "psfsim/field_model.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/metrics.hpp"
#include "psfsim/optics_spec.hpp"
#include "psfsim/optical_train.hpp"
#include "psfsim/aberration.hpp"
#include "psfsim/zernike_convention.hpp"

namespace psfsim {

inline constexpr int max_samples = 16384;
inline constexpr int max_padded_size = 65536;
inline constexpr double default_pad_factor = 2.0;
inline constexpr int max_repeat = 1'000'000;
inline constexpr int max_chunk_frames = 1'000'000;
inline constexpr int max_threads = 4096;

struct RunSpec {
  int samples = 128;
  std::optional<double> pad_factor;  // default_pad_factor when neither this nor padded_size
  std::optional<int> padded_size;
  Grid grid = Grid::centered;
  Precision precision = Precision::single;
  Normalization normalization = Normalization::peak;
  double obscuration = 0.0;
  std::optional<int> crop;
  int repeat = 1;
  int threads = 0;  // 0: all cores
  int device = 0;
  std::string backend = "auto";
  std::vector<Aberration> frames{Aberration{}};  // B >= 1, unless `drawn`
  // --random's frames, drawn as the run reaches them; `frames` is then empty.
  std::optional<RandomAberrations> drawn;
  // Where these frames sit in the user's whole batch: an MPI rank's block starts at
  // `block_first` of `whole_batch` frames (0: this run is the whole batch). Per-frame pupil
  // maps and the noise (keyed by frame) take the whole batch's indices, and drawn frames
  // start there in the random stream.
  std::size_t block_first = 0;
  std::size_t whole_batch = 0;
  std::filesystem::path output;
  bool force = false;
  bool quiet = false;
  // FFTW wisdom file, read before planning and updated after: "" for the per-user cache
  // (wisdom_cache_path), "none" for no wisdom at all.
  std::string wisdom;
  FftEffort fft_effort = FftEffort::automatic;
  std::string compression = "none";  // of /psf: parse_compression's syntax
  int chunk_frames = 0;       // frames per compute call; 0: at most 16 MiB of output, 4096 frames
  bool stage_timing = false;  // GPU: per-stage events even where they cost time
  // Frames left where a device backend computes them (PsfPlan::frames_on_device): set by an
  // in-process caller (the Python module), never by an option.
  bool frames_on_device = false;
  // No stage times wanted (PsfPlan::untimed): set by an in-process caller, never by an option.
  bool untimed = false;
  OpticsSpec optics;          // physical units, spectrum, propagation, detector (docs/spec.md §6)
  ApertureSpec aperture;      // spiders, hexagons, pupil maps (docs/spec.md §7)
  OpticalTrain train;         // planes after the pupil (docs/coronagraphy.md); empty: none
  FieldModel field;           // field-dependent aberrations and points (docs/field.md)
  ZernikeConvention zernike;  // --zernike-order, --zernike-norm (docs/spec.md §7)
  MetricsSpec metrics;  // --metrics, --ee-radii, --mtf-frequencies, --store (docs/spec.md §7)
  // How the frames were defined, as the user wrote it, for the effective configuration.
  Aberration fixed_terms;
  std::string vary;
  std::string random;
  std::string frames_file;
};

// B: the frames held or drawn.
[[nodiscard]] inline std::size_t batch_size(const RunSpec& spec) noexcept {
  return spec.drawn ? static_cast<std::size_t>(spec.drawn->random.count) : spec.frames.size();
}

// Derived sizes and sampling of a valid RunSpec (geometry(), run_plan.hpp).
struct Geometry {
  int samples = 0;          // N
  int padded = 0;           // M of the FFT; 0 for an MFT run whose pixel scale no integer M gives
  int frame = 0;            // K: the stored frame's edge (M when not cropped)
  double pad_factor = 0.0;  // M / N as realised (0 without M)
  double pixel_scale_lambda_over_d = 0.0;      // s: lambda_ref/D per stored pixel
  Propagation propagation = Propagation::fft;  // resolved
  bool fft_applies = true;              // one wavelength, whole pixels, an integer M holding K
  bool physical = false;                // s comes from --pixel-scale or --fnumber/--pixel-pitch
  std::vector<SpectralLine> spectrum;   // W >= 1 lines; one (weight 1) when monochromatic
  double reference_wavelength_m = 0.0;  // 0 when no wavelength was given
  int oversample = 1;                   // S
  double jitter_lambda_over_d = 0.0;    // sigma in lambda_ref/D
  double waves_per_unit = 1.0;          // the coefficients' unit in waves at lambda_ref
  std::optional<double> pixel_scale_arcsec;  // physical facts, where the options give them
  std::optional<double> pixel_pitch_m;
  std::optional<double> diameter_m;
  std::optional<double> fnumber;
  // --source-offset (X, Y) in lambda_ref/D, and --defocus-distance.
  std::array<double, 2> source_offset_lambda_over_d{};
  double defocus_distance_m = 0.0;

  // Oversampling, jitter or photon noise: the detector stage runs after the backend.
  [[nodiscard]] bool detector_stage(const OpticsSpec& o) const noexcept {
    return oversample > 1 || jitter_lambda_over_d > 0.0 || o.photons.has_value();
  }
  // The backend's frame edge: S*K sub-pixels.
  [[nodiscard]] int computed_frame() const noexcept { return oversample * frame; }
};

}  // namespace psfsim

#pragma once
// The physical options of docs/spec.md §6 as the user gave them (parsed, with units in SI), and
// what
// a run derives from them: the pixel scale, the spectrum's channels, the propagation and the
// detector. Without any of them a run is the λ/D run of docs/spec.md §1.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "psfsim/enums.hpp"
#include "psfsim/spectrum.hpp"
#include "psfsim/units.hpp"

namespace psfsim {

// Units of the phase terms' coefficients: waves at the reference wavelength, or OPD.
enum class AberrationUnits { waves, nm, um };

struct OpticsSpec {
  std::optional<double> wavelength_m;   // --wavelength: monochromatic, and the reference
  std::optional<double> fnumber;        // --fnumber, with --pixel-pitch
  std::optional<double> pixel_pitch_m;  // --pixel-pitch
  std::optional<double> diameter_m;     // --diameter, with --pixel-scale
  std::optional<Angle> pixel_scale;     // --pixel-scale: an angle, or lod
  std::vector<SpectralLine> spectrum;   // --wavelengths or --band, weights summing to 1
  std::string wavelengths_text;         // as given, for the effective configuration
  std::string band_text;
  AberrationUnits aberration_units = AberrationUnits::waves;
  Propagation propagation = Propagation::automatic;
  int oversample = 1;           // S
  std::optional<Angle> jitter;  // RMS per axis: an angle, or lod
  // --source-offset X,Y: the source's direction off the optical axis, each an angle or lod;
  // +X moves the PSF towards +x (increasing column), +Y towards +y (increasing row).
  std::optional<std::array<Angle, 2>> source_offset;
  // --defocus-distance: the detector this far from focus (+: further from the pupil), metres.
  std::optional<double> defocus_distance_m;
  std::optional<double> photons;  // photo-electrons over the whole focal plane
  double background = 0.0;        // photo-electrons per pixel
  double read_noise = 0.0;        // RMS electrons per pixel
  std::uint64_t noise_seed = 0;
};

[[nodiscard]] std::string_view to_string(AberrationUnits u) noexcept;
[[nodiscard]] std::optional<AberrationUnits> parse_aberration_units(std::string_view s) noexcept;

// Largest --oversample: S*K*S*K sub-pixels per frame grow fast.
inline constexpr int max_oversample = 16;

}  // namespace psfsim

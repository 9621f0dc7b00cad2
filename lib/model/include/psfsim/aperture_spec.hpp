#pragma once
// The pupil beyond the annulus (docs/spec.md §7): spiders, segmented hexagons, amplitude and OPD
// maps
// from files. Filled by the CLI, the maps' values by io (read_pupil_maps); turned into the
// sampled pupil by pupil_sampling (geometry in aperture_geometry). docs/pupils.md has the rules.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "psfsim/optics_spec.hpp"  // AberrationUnits: --opd-units takes the same units
#include "psfsim/pupil_map.hpp"

namespace psfsim {

// --spiders COUNT,WIDTH[,ANGLE]: COUNT radial struts from the optical axis to the rim, WIDTH a
// fraction of D, the first at ANGLE degrees from +x, the others evenly spaced.
struct Spiders {
  int count = 0;
  double width = 0.0;
  double angle_deg = 0.0;
};

// --hex-segments RINGS,GAP[,nocenter][,flat]: 1 + 3 RINGS (RINGS + 1) hexagons, GAP a
// fraction of D; `flat` turns the whole pattern by 90 degrees, to flat-topped segments (as
// POPPY and HCIPy draw them) from pointy-topped ones.
struct HexSegments {
  int rings = 0;
  double gap = 0.0;
  bool center = true;
  bool flat_top = false;
};

struct ApertureSpec {
  std::optional<Spiders> spiders;
  std::optional<HexSegments> hex_segments;
  std::string amplitude;  // --pupil-amplitude FILE[:DATASET] as written; empty: none
  std::string opd;        // --pupil-opd FILE[:DATASET] as written; empty: none
  AberrationUnits opd_units = AberrationUnits::waves;
  // The maps' values, read from `amplitude` and `opd` by io's read_pupil_maps before the pupil
  // is sampled (null until then), and shared by the copies of a spec.
  std::shared_ptr<const PupilMap> amplitude_map{};
  std::shared_ptr<const PupilMap> opd_map{};

  // Only the annulus of --obscuration: the backends' span fast path, no map.
  [[nodiscard]] bool plain() const noexcept {
    return !spiders && !hex_segments && amplitude.empty() && opd.empty();
  }
};

// Parse the options' text; throw InputError naming `option` and the text.
[[nodiscard]] Spiders parse_spiders(std::string_view text, std::string_view option);
[[nodiscard]] HexSegments parse_hex_segments(std::string_view text, std::string_view option);
// The options' text for a parsed value, which parses back to the same value.
[[nodiscard]] std::string to_string(const Spiders& s);
[[nodiscard]] std::string to_string(const HexSegments& h);

// Range checks (InputError naming the option). `reference_wavelength_m` (0: none) turns an
// OPD in nm or um into waves. Does not touch the file system.
void validate_aperture(const ApertureSpec& aperture, double reference_wavelength_m);

}  // namespace psfsim

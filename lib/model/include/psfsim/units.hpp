#pragma once
// Lengths and angles with a unit suffix (docs/spec.md §6): "550nm", "4.6 um", "8.2m", "10mas",
// "0.5lod".
// A bare number is an error: a wavelength of "550" could mean nm or m, and guessing is worse
// than asking. Units are case-sensitive ("Mm" is not "mm"); "µm" and "μm" are read as "um".
#include <string>
#include <string_view>

namespace psfsim {

// What a parsed value must satisfy; the error names the option and the text.
enum class Sign { any, positive, non_negative };

// Metres from nm, um, mm or m. "550nm" is the double nearest 550e-9 (the number is divided by
// an exact power of ten), so it equals the parse of "550e-9".
[[nodiscard]] double parse_length(std::string_view text, std::string_view option,
                                  Sign sign = Sign::any);

// An angle in radians, or a multiple of λ/D at the reference wavelength ("lod"), which only
// the caller can turn into radians once the wavelength and diameter are known.
struct Angle {
  double value = 0.0;
  bool lod = false;
};

// Radians from mas, arcsec, arcmin or deg; "lod" too where allow_lod, else it is an error.
[[nodiscard]] Angle parse_angle(std::string_view text, std::string_view option, bool allow_lod,
                                Sign sign = Sign::any);

// Text that parse_length reads back to the same double, bit for bit: the shortest decimal in
// a readable unit (nm below 1 um, then um, mm, m), or in another where that one cannot spell
// the value exactly (m always can). What the effective TOML config writes.
[[nodiscard]] std::string format_length(double metres);
// Likewise for angles (mas below 1 arcsec, arcsec below 1 deg, then deg; "lod" kept), bit for
// bit for every value parse_angle produced; x·(π/180) skips some doubles, so an angle computed
// otherwise may come back an ulp or two away.
[[nodiscard]] std::string format_angle(const Angle& angle);

}  // namespace psfsim

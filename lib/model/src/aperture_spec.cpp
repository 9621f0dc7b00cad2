#include "psfsim/aperture_spec.hpp"

#include <cmath>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {
namespace {

// Beyond this many struts or rings the pupil is no longer something a sampled grid resolves.
constexpr int max_spiders = 360;
constexpr int max_rings = 100;

[[noreturn]] void reject(std::string_view option, std::string_view text, std::string_view why) {
  throw InputError(std::string(option) + " '" + std::string(text) + "': " + std::string(why));
}

int count_field(std::string_view field, std::string_view option, std::string_view text,
                std::string_view name, int lowest, int highest) {
  const auto v = parse_integer(field);
  if (!v || *v < lowest || *v > highest)
    reject(option, text,
           std::string(name) + " must be an integer from " + std::to_string(lowest) + " to " +
               std::to_string(highest));
  return static_cast<int>(*v);
}

double fraction_field(std::string_view field, std::string_view option, std::string_view text,
                      std::string_view name) {
  const auto v = parse_finite_double(field);
  if (!v || *v < 0.0 || *v >= 1.0)
    reject(option, text, std::string(name) + " must be a number in [0, 1) (a fraction of D)");
  return *v;
}

}  // namespace

Spiders parse_spiders(std::string_view text, std::string_view option) {
  const auto f = split_fields(text);
  if (f.size() != 2 && f.size() != 3) reject(option, text, "expected COUNT,WIDTH[,ANGLE]");
  Spiders s;
  s.count = count_field(f[0], option, text, "COUNT", 1, max_spiders);
  s.width = fraction_field(f[1], option, text, "WIDTH");
  if (f.size() == 3) {
    const auto a = parse_finite_double(f[2]);
    if (!a || std::fabs(*a) > 360.0) reject(option, text, "ANGLE must be degrees in [-360, 360]");
    s.angle_deg = *a;
  }
  return s;
}

HexSegments parse_hex_segments(std::string_view text, std::string_view option) {
  const auto f = split_fields(text);
  if (f.size() < 2 || f.size() > 4) reject(option, text, "expected RINGS,GAP[,nocenter][,flat]");
  HexSegments h;
  h.rings = count_field(f[0], option, text, "RINGS", 0, max_rings);
  h.gap = fraction_field(f[1], option, text, "GAP");
  for (std::size_t i = 2; i < f.size(); ++i) {
    if (f[i] == "nocenter" && h.center) h.center = false;
    else if (f[i] == "flat" && !h.flat_top) h.flat_top = true;
    else reject(option, text, "the fields after GAP can only be 'nocenter' and 'flat', once each");
  }
  return h;
}

std::string to_string(const Spiders& s) {
  return std::to_string(s.count) + "," + format_number(s.width) + "," + format_number(s.angle_deg);
}

std::string to_string(const HexSegments& h) {
  return std::to_string(h.rings) + "," + format_number(h.gap) + (h.center ? "" : ",nocenter") +
         (h.flat_top ? ",flat" : "");
}

void validate_aperture(const ApertureSpec& a, double reference_wavelength_m) {
  if (a.spiders) {
    const Spiders& s = *a.spiders;
    if (s.count < 1 || s.count > max_spiders || !(s.width >= 0.0 && s.width < 1.0) ||
        !(std::fabs(s.angle_deg) <= 360.0))
      throw InputError(flag(Option::spiders) + " " + to_string(s) + ": out of range");
  }
  if (a.hex_segments) {
    const HexSegments& h = *a.hex_segments;
    const std::string named = flag(Option::hex_segments) + " " + to_string(h);
    if (h.rings < 0 || h.rings > max_rings || !(h.gap >= 0.0 && h.gap < 1.0))
      throw InputError(named + ": out of range");
    if (h.rings == 0 && !h.center)
      throw InputError(named + ": no segment left (0 rings without the centre)");
  }
  if (!a.opd.empty() && a.opd_units != AberrationUnits::waves && !(reference_wavelength_m > 0.0))
    throw InputError(flag(Option::opd_units) + " " + std::string(to_string(a.opd_units)) +
                     ": an OPD in length units needs a wavelength (" + flag(Option::wavelength) +
                     ", " + flag(Option::wavelengths) + " or " + flag(Option::band) + ")");
}

}  // namespace psfsim

#include "psfsim/optics_spec.hpp"

namespace psfsim {

std::string_view to_string(AberrationUnits u) noexcept {
  switch (u) {
    case AberrationUnits::waves: return "waves";
    case AberrationUnits::nm: return "nm";
    case AberrationUnits::um: return "um";
  }
  return "?";
}

std::optional<AberrationUnits> parse_aberration_units(std::string_view s) noexcept {
  for (const AberrationUnits u : {AberrationUnits::waves, AberrationUnits::nm, AberrationUnits::um})
    if (s == to_string(u)) return u;
  return std::nullopt;
}

}  // namespace psfsim

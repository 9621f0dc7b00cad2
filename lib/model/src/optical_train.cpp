#include "psfsim/optical_train.hpp"

#include <cmath>
#include <cstdlib>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/units.hpp"

namespace psfsim {
namespace {

// Beyond these a sampled pupil no longer resolves what the mask does.
constexpr double max_spot_radius = 1000.0;
constexpr int max_vortex_charge = 64;

[[noreturn]] void reject(std::string_view option, std::string_view text, std::string_view why) {
  throw InputError(std::string(option) + " '" + printable(text) + "': " + std::string(why));
}

double number_field(std::string_view field, std::string_view option, std::string_view text,
                    std::string_view name, double lowest, double highest, bool open_low) {
  const auto v = parse_finite_double(field);
  const bool low_ok = v && (open_low ? *v > lowest : *v >= lowest);
  if (!low_ok || *v > highest)
    reject(option, text,
           std::string(name) + " must be a number " + (open_low ? "> " : ">= ") +
               format_number(lowest) + " and <= " + format_number(highest));
  return *v;
}

std::pair<std::string_view, std::string_view> split_kind(std::string_view text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return {trim(text), {}};
  return {trim(text.substr(0, colon)), text.substr(colon + 1)};
}

}  // namespace

bool OpticalTrain::has_focal_mask() const noexcept {
  for (const TrainPlane& p : planes)
    if (std::holds_alternative<FocalMask>(p)) return true;
  return false;
}

FocalMask parse_focal_mask(std::string_view text, std::string_view option) {
  const auto [kind, rest] = split_kind(text);
  FocalMask m;
  if (kind == "lyot") {
    const auto f = split_fields(rest);
    if (f.empty() || f.size() > 2 || f[0].empty())
      reject(option, text, "expected lyot:RADIUS[,TRANSMISSION] (RADIUS in lambda/D)");
    m.kind = FocalMask::Kind::spot;
    m.radius = number_field(f[0], option, text, "RADIUS", 0.0, max_spot_radius, true);
    if (f.size() == 2)
      m.transmission = number_field(f[1], option, text, "TRANSMISSION", 0.0, 1.0, false);
    return m;
  }
  if (kind == "vortex") {
    const auto l = parse_integer(trim(rest));
    if (!l || *l == 0 || *l % 2 != 0 || std::llabs(*l) > max_vortex_charge)
      reject(option, text,
             "expected vortex:CHARGE, an even integer from 2 to " +
                 std::to_string(max_vortex_charge) + " (or its negative)");
    m.kind = FocalMask::Kind::vortex;
    m.charge = static_cast<int>(*l);
    return m;
  }
  if (kind == "fqpm") {
    if (!trim(rest).empty() || text.find(':') != std::string_view::npos)
      reject(option, text, "fqpm takes no value");
    m.kind = FocalMask::Kind::four_quadrant;
    return m;
  }
  if (kind == "map") {
    // FILE[:DATASET],SAMPLING[,phase]: the fields after the last commas.
    auto f = split_fields(rest);
    bool phase = false;
    if (f.size() >= 3 && f.back() == "phase") {
      phase = true;
      f.pop_back();
    }
    if (f.size() < 2 || f.front().empty())
      reject(option, text, "expected map:FILE[:DATASET],SAMPLING[,phase] (SAMPLING in lambda/D)");
    const std::string_view sampling = f.back();
    const std::size_t end =
        rest.rfind(',', rest.size() - (phase ? std::string_view(",phase").size() : 0));
    m.kind = FocalMask::Kind::map;
    m.map = std::string(trim(rest.substr(0, end)));
    m.map_sampling = number_field(sampling, option, text, "SAMPLING", 0.0, max_spot_radius, true);
    m.map_is_phase = phase;
    return m;
  }
  reject(option, text,
         "expected lyot:RADIUS[,TRANSMISSION], vortex:CHARGE, fqpm or "
         "map:FILE[:DATASET],SAMPLING[,phase]");
}

PupilStop parse_pupil_stop(std::string_view text, std::string_view option) {
  const auto f = split_fields(text);
  if (f.empty() || f.size() > 2 || f[0].empty())
    reject(option, text, "expected DIAMETER[,OBSCURATION], fractions of the pupil's diameter");
  PupilStop s;
  s.diameter = number_field(f[0], option, text, "DIAMETER", 0.0, 1.0, true);
  if (f.size() == 2) {
    s.obscuration = number_field(f[1], option, text, "OBSCURATION", 0.0, 1.0, false);
    if (!(s.obscuration < s.diameter))
      reject(option, text, "OBSCURATION must be smaller than DIAMETER");
  }
  return s;
}

TrainPlane parse_plane(std::string_view text, std::string_view option) {
  const auto [kind, rest] = split_kind(text);
  if (kind == "focal") return parse_focal_mask(rest, option);
  if (kind == "pupil") {
    const std::size_t semi = rest.find(';');
    PupilStop s = parse_pupil_stop(rest.substr(0, semi), option);
    if (semi != std::string_view::npos) s.spiders = parse_spiders(rest.substr(semi + 1), option);
    return s;
  }
  if (kind == "distance") {
    const double z = parse_length(trim(rest), option);
    if (!std::isfinite(z) || z == 0.0) reject(option, text, "the distance must be nonzero");
    return Distance{z};
  }
  reject(option, text,
         "expected focal:MASK, pupil:DIAMETER[,OBSCURATION][;COUNT,WIDTH[,ANGLE]] or "
         "distance:LENGTH");
}

std::string to_string(const FocalMask& m) {
  switch (m.kind) {
    case FocalMask::Kind::spot:
      return "lyot:" + format_number(m.radius) +
             (m.transmission > 0.0 ? "," + format_number(m.transmission) : "");
    case FocalMask::Kind::vortex: return "vortex:" + std::to_string(m.charge);
    case FocalMask::Kind::four_quadrant: return "fqpm";
    case FocalMask::Kind::map:
      return "map:" + m.map + "," + format_number(m.map_sampling) +
             (m.map_is_phase ? ",phase" : "");
  }
  return {};
}

std::string to_string(const PupilStop& s) {
  return format_number(s.diameter) +
         (s.obscuration > 0.0 ? "," + format_number(s.obscuration) : std::string());
}

std::string to_string(const TrainPlane& p) {
  if (const auto* m = std::get_if<FocalMask>(&p)) return "focal:" + to_string(*m);
  if (const auto* s = std::get_if<PupilStop>(&p))
    return "pupil:" + to_string(*s) + (s->spiders ? ";" + to_string(*s->spiders) : "");
  return "distance:" + format_length(std::get<Distance>(p).metres);
}

std::string_view plane_kind(const TrainPlane& p) noexcept {
  if (std::holds_alternative<FocalMask>(p)) return "focal";
  if (std::holds_alternative<PupilStop>(p)) return "pupil";
  return "distance";
}

}  // namespace psfsim

#include "psfsim/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <numbers>
#include <optional>
#include <span>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"

namespace psfsim {
namespace {

// One unit and how it maps to the SI value. Lengths divide by an exact power of ten, so an
// integer number of nm is correctly rounded; angles multiply by the (rounded) radian constant.
struct Unit {
  std::string_view name;
  double factor;
  bool divide;
  [[nodiscard]] double to_si(double x) const { return divide ? x / factor : x * factor; }
  [[nodiscard]] double from_si(double v) const { return divide ? v * factor : v / factor; }
};

constexpr double pi = std::numbers::pi;
// Ascending, so that formatting picks the largest unit not above the value.
constexpr std::array<Unit, 4> length_units{
    {{"nm", 1e9, true}, {"um", 1e6, true}, {"mm", 1e3, true}, {"m", 1.0, true}}};
constexpr std::array<Unit, 4> angle_units{{{"mas", pi / 648'000'000.0, false},
                                           {"arcsec", pi / 648'000.0, false},
                                           {"arcmin", pi / 10'800.0, false},
                                           {"deg", pi / 180.0, false}}};
constexpr std::string_view lod = "lod";

constexpr std::string_view length_names = "nm, um, mm or m";
constexpr std::string_view angle_names = "mas, arcsec, arcmin or deg";
constexpr std::string_view angle_or_lod_names = "mas, arcsec, arcmin, deg or lod";

[[noreturn]] void reject(std::string_view option, std::string_view text, std::string_view why) {
  throw InputError(std::string(option) + " '" + std::string(text) + "': " + std::string(why));
}

struct Quantity {
  double number;
  std::string_view unit;
};

// The unit is the trailing run of letters (and UTF-8 bytes, for µ); the rest must be a number.
Quantity split_quantity(std::string_view text, std::string_view option, std::string_view kind,
                        std::string_view names) {
  const std::string_view t = trim(text);
  std::size_t at = t.size();
  while (at > 0) {
    const auto c = static_cast<unsigned char>(t[at - 1]);
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80)) break;
    --at;
  }
  const std::string_view unit = t.substr(at);
  const std::string_view number = trim(t.substr(0, at));
  if (unit.empty() || number.empty())
    reject(option, text,
           std::string(kind) +
               (number.empty() ? " needs a number and a unit: " : " needs a unit: ") +
               std::string(names));
  const auto value = parse_finite_double(number);
  if (!value) reject(option, text, "'" + std::string(number) + "' is not a finite number");
  return {*value, unit == "\u00b5m" || unit == "\u03bcm" ? std::string_view("um") : unit};
}

const Unit* find_unit(std::span<const Unit> units, std::string_view name) {
  for (const Unit& u : units)
    if (u.name == name) return &u;
  return nullptr;
}

void check_sign(double value, Sign sign, std::string_view option, std::string_view text) {
  if (sign == Sign::positive && !(value > 0)) reject(option, text, "must be greater than zero");
  if (sign == Sign::non_negative && value < 0) reject(option, text, "must not be negative");
}

const Unit& readable_unit(std::span<const Unit> units, double si) {
  const Unit* pick = &units.front();
  for (const Unit& u : units)
    if (std::fabs(si) >= u.to_si(1.0)) pick = &u;
  return *pick;
}

// The shortest text of `si` in `unit` that reads back to it bit for bit, if there is one:
// x -> x·factor (or x/factor) can skip doubles, but a value parsed in a unit is reachable in
// it. x0 = from_si(si) may miss by an ulp, so its neighbours are tried too.
std::optional<std::string> exact_in(double si, const Unit& unit) {
  const double x0 = unit.from_si(si);
  std::array<double, 9> candidates{x0};
  double up = x0, down = x0;
  for (std::size_t i = 1; i < candidates.size(); i += 2) {
    up = std::nextafter(up, HUGE_VAL);
    down = std::nextafter(down, -HUGE_VAL);
    candidates[i] = up;
    candidates[i + 1] = down;
  }
  char buf[40];
  for (int digits = 1; digits <= 17; ++digits) {
    for (const double x : candidates) {
      const auto end = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::general, digits);
      const auto back = parse_finite_double(std::string_view(buf, end.ptr));
      // format_number: "550", where the %g style above writes "5.5e+02".
      if (back && unit.to_si(*back) == si) return format_number(*back) + std::string(unit.name);
    }
  }
  return std::nullopt;
}

// The readable unit if it spells the value exactly, else another that does ("3600arcsec"
// may have no exact spelling in deg). A length always has one in m; an angle that no unit
// reaches (one not parsed from text) gets the nearest, an ulp or two away.
std::string format_in(double si, std::span<const Unit> units) {
  const Unit& readable = readable_unit(units, si);
  if (auto text = exact_in(si, readable)) return *text;
  for (const Unit& u : units)
    if (&u != &readable)
      if (auto text = exact_in(si, u)) return *text;
  return format_number(readable.from_si(si)) + std::string(readable.name);
}

}  // namespace

double parse_length(std::string_view text, std::string_view option, Sign sign) {
  const Quantity q = split_quantity(text, option, "a length", length_names);
  const Unit* unit = find_unit(length_units, q.unit);
  if (!unit)
    reject(
        option, text,
        "unknown unit '" + std::string(q.unit) + "': a length takes " + std::string(length_names));
  const double metres = unit->to_si(q.number);
  check_sign(metres, sign, option, text);
  return metres;
}

Angle parse_angle(std::string_view text, std::string_view option, bool allow_lod, Sign sign) {
  const std::string_view names = allow_lod ? angle_or_lod_names : angle_names;
  const Quantity q = split_quantity(text, option, "an angle", names);
  Angle angle;
  if (q.unit == lod) {
    if (!allow_lod)
      reject(option, text,
             "lod (lambda/D) is not accepted here: an angle takes " + std::string(names));
    angle = {q.number, true};
  } else {
    const Unit* unit = find_unit(angle_units, q.unit);
    if (!unit)
      reject(option, text,
             "unknown unit '" + std::string(q.unit) + "': an angle takes " + std::string(names));
    angle = {unit->to_si(q.number), false};
  }
  check_sign(angle.value, sign, option, text);
  return angle;
}

std::string format_length(double metres) { return format_in(metres, length_units); }

std::string format_angle(const Angle& angle) {
  if (angle.lod) return format_number(angle.value) + std::string(lod);
  return format_in(angle.value, angle_units);
}

}  // namespace psfsim

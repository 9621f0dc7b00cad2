#include "psfsim/aberration.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"

namespace psfsim {
namespace {

// Larger coefficients are surely a typo and would lose the phase's fractional part.
constexpr double max_abs_waves = 1e6;

[[noreturn]] void reject(std::string_view option, std::string_view text, std::string_view why) {
  throw InputError(std::string(option) + " '" + std::string(text) + "': " + std::string(why));
}

// An integer index or power; one beyond any range is kept just beyond it, so that the
// range check that follows names the real bound.
int parse_int_field(std::string_view field, std::string_view option, std::string_view text,
                    std::string_view name) {
  const auto v = parse_integer(field);
  if (!v) reject(option, text, std::string(name) + " must be an integer");
  return static_cast<int>(std::clamp(*v, -1'000'001LL, 1'000'001LL));
}

double parse_waves(std::string_view field, std::string_view option, std::string_view text) {
  const auto v = parse_finite_double(field);
  if (!v) reject(option, text, "the coefficient must be a finite number of waves");
  if (std::fabs(*v) > max_abs_waves) reject(option, text, "the coefficient exceeds 1e6 waves");
  return *v;
}

}  // namespace

SeidelTerm parse_seidel(std::string_view text, std::string_view option) {
  const auto f = split_fields(text);
  if (f.size() != 3) reject(option, text, "expected l,m,W (three comma-separated numbers)");
  SeidelTerm t{parse_int_field(f[0], option, text, "l"), parse_int_field(f[1], option, text, "m"),
               parse_waves(f[2], option, text)};
  if (t.m < 0 || t.l < t.m)
    reject(option, text, "need 0 <= m <= l (rho^l cos^m(phi) must be finite at the centre)");
  if (t.l > max_seidel_power)
    reject(option, text, "l must be at most " + std::to_string(max_seidel_power));
  return t;
}

ZernikeTerm parse_zernike(std::string_view text, std::string_view option, ZernikeOrdering order) {
  const auto f = split_fields(text);
  const std::string index = std::string(display_name(order)) + " index";
  if (f.size() != 2) reject(option, text, "expected j,c (" + index + " and coefficient in waves)");
  ZernikeTerm t{parse_int_field(f[0], option, text, "the " + index + " j"),
                parse_waves(f[1], option, text)};
  const std::string why = index_problem(t.j, order);
  if (!why.empty()) reject(option, text, why);
  return t;
}

Aberration to_noll(const Aberration& written, const ZernikeConvention& convention) {
  if (convention == ZernikeConvention{}) return written;
  Aberration terms = written;
  for (auto& t : terms.zernike) {
    const NollMapping noll = to_noll(t.j, convention);
    t = {noll.j, t.waves / noll.divisor};
  }
  return terms;
}

std::string term_name(const SeidelTerm& t) {
  return "S" + std::to_string(t.l) + "_" + std::to_string(t.m);
}

std::string term_name(const ZernikeTerm& t) { return "Z" + std::to_string(t.j); }

std::string to_string(const SeidelTerm& t) {
  return std::to_string(t.l) + "," + std::to_string(t.m) + "," + format_number(t.waves);
}

std::string to_string(const ZernikeTerm& t) {
  return std::to_string(t.j) + "," + format_number(t.waves);
}

}  // namespace psfsim

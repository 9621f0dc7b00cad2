#include "psfsim/phase_terms.hpp"

#include <cmath>
#include <charconv>
#include <sstream>

#include "parse_number.hpp"
#include "psfsim/errors.hpp"

namespace psfsim {
namespace {

// Larger coefficients are surely a typo and would lose the phase's fractional part.
constexpr double max_abs_waves = 1e6;

std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    fields.push_back(text.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

[[noreturn]] void reject(std::string_view option, std::string_view text, std::string_view why) {
  throw InputError(std::string(option) + " '" + std::string(text) + "': " + std::string(why));
}

int parse_int_field(std::string_view field, std::string_view option, std::string_view text,
                    std::string_view name) {
  const auto v = detail::parse_integer(field);
  if (!v || *v < -1'000'000 || *v > 1'000'000)
    reject(option, text, std::string(name) + " must be an integer");
  return static_cast<int>(*v);
}

double parse_waves(std::string_view field, std::string_view option, std::string_view text) {
  const auto v = detail::parse_finite_double(field);
  if (!v) reject(option, text, "the coefficient must be a finite number of waves");
  if (std::fabs(*v) > max_abs_waves) reject(option, text, "the coefficient exceeds 1e6 waves");
  return *v;
}

// Shortest text that reads back to the same double: "0.1", not "0.10000000000000001".
std::string format_number(double v) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, v);
  return std::string(text, result.ptr);
}

}  // namespace

SeidelTerm parse_seidel(std::string_view text, std::string_view option) {
  const auto f = split_commas(text);
  if (f.size() != 3) reject(option, text, "expected l,m,W (three comma-separated numbers)");
  SeidelTerm t{parse_int_field(f[0], option, text, "l"), parse_int_field(f[1], option, text, "m"),
               parse_waves(f[2], option, text)};
  if (t.m < 0 || t.l < t.m)
    reject(option, text, "need 0 <= m <= l (rho^l cos^m(phi) must be finite at the centre)");
  if (t.l > max_seidel_power)
    reject(option, text, "l must be at most " + std::to_string(max_seidel_power));
  return t;
}

ZernikeTerm parse_zernike(std::string_view text, std::string_view option) {
  const auto f = split_commas(text);
  if (f.size() != 2) reject(option, text, "expected j,c (Noll index and coefficient in waves)");
  ZernikeTerm t{parse_int_field(f[0], option, text, "the Noll index j"),
                parse_waves(f[1], option, text)};
  constexpr int n = max_zernike_radial_order;
  constexpr int max_j = (n + 1) * (n + 2) / 2;
  if (t.j < 1) reject(option, text, "the Noll index j must be >= 1");
  if (t.j > max_j)
    reject(option, text, "the Noll index j must be at most " + std::to_string(max_j) +
                             " (radial order " + std::to_string(n) + ")");
  return t;
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

#include "psfsim/field_aberration.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/zernike.hpp"
#include "psfsim/zernike_convention.hpp"

namespace psfsim {
namespace {

[[noreturn]] void reject(std::string_view option, std::string_view text, std::string_view why) {
  throw InputError(std::string(option) + " '" + std::string(text) + "': " + std::string(why));
}

// The text after the first field: the pupil term's own "l,m,W" or "j,c", which the pupil
// parsers check (and name in their messages) exactly as --seidel's and --zernike's.
std::string_view after_first_field(std::string_view text) {
  const auto comma = text.find(',');
  return comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
}

long long parse_leading_index(std::string_view text, std::string_view option,
                              std::string_view name) {
  const auto v = parse_integer(split_fields(text).front());
  if (!v) reject(option, text, std::string(name) + " must be an integer");
  return *v;
}

}  // namespace

SeidelFieldTerm parse_seidel_field(std::string_view text, std::string_view option) {
  if (split_fields(text).size() != 4)
    reject(option, text, "expected k,l,m,W (four comma-separated numbers)");
  const long long k = parse_leading_index(text, option, "k");
  if (k < 0 || k > max_field_power)
    reject(option, text, "k must be from 0 to " + std::to_string(max_field_power));
  const SeidelTerm pupil = parse_seidel(after_first_field(text), option);
  return {static_cast<int>(k), pupil.l, pupil.m, pupil.waves};
}

DoubleZernikeTerm parse_double_zernike(std::string_view text, std::string_view option) {
  if (split_fields(text).size() != 3)
    reject(option, text, "expected k,j,c (field and pupil Noll indices, coefficient in waves)");
  // Beyond int's range the index is surely out of range: index_problem names the bound.
  const long long k = std::clamp(parse_leading_index(text, option, "the field's Noll index k"),
                                 -1'000'001LL, 1'000'001LL);
  if (const std::string why = index_problem(static_cast<int>(k), ZernikeOrdering::noll);
      !why.empty())
    reject(option, text, "the field's " + why);
  const ZernikeTerm pupil = parse_zernike(after_first_field(text), option, ZernikeOrdering::noll);
  return {static_cast<int>(k), pupil.j, pupil.waves};
}

Aberration pupil_terms(const FieldAberrations& field, FieldPoint point) {
  Aberration terms;
  const double h = std::hypot(point.x, point.y);
  // On axis the azimuth is undefined; every term with k > 0 vanishes there, and one with
  // k = 0 is the same at every point only if it does not turn with the field's azimuth: 0.
  const double azimuth = h > 0.0 ? std::atan2(point.y, point.x) : 0.0;
  for (const SeidelFieldTerm& t : field.seidel)
    terms.seidel.push_back({t.l, t.m, t.waves * std::pow(h, t.k), azimuth});
  // One pupil Zernike per pupil index, in increasing j, the field polynomials summed into it.
  std::map<int, double> by_pupil_index;
  for (const DoubleZernikeTerm& t : field.double_zernike)
    by_pupil_index[t.j] += t.waves * zernike_polar(t.k, h, azimuth);
  for (const auto& [j, waves] : by_pupil_index) terms.zernike.push_back({j, waves});
  return terms;
}

std::vector<FieldPoint> field_grid(int nx, int ny, double radius) {
  const auto axis = [radius](int count) {
    std::vector<double> values(static_cast<std::size_t>(count), 0.0);
    for (int i = 0; count > 1 && i < count; ++i)
      values[static_cast<std::size_t>(i)] = radius * (2.0 * i / (count - 1) - 1.0);
    return values;
  };
  const std::vector<double> xs = axis(nx), ys = axis(ny);
  std::vector<FieldPoint> points;
  points.reserve(xs.size() * ys.size());
  for (const double y : ys)
    for (const double x : xs) points.push_back({x, y});
  return points;
}

}  // namespace psfsim

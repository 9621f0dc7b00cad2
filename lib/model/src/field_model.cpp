#include "psfsim/field_model.hpp"

#include <cmath>
#include <string>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"

namespace psfsim {
namespace {

[[noreturn]] void reject(std::string_view option, std::string_view text, std::string_view why) {
  throw InputError(std::string(option) + " '" + printable(text) + "': " + std::string(why));
}

// One coordinate: a bare number is in units of the field radius; one with a unit is an angle
// on the sky, divided by the field's radius there.
double field_coordinate(std::string_view field, std::string_view option, std::string_view text,
                        std::optional<double> radius_rad) {
  if (const auto v = parse_finite_double(trim(field))) return *v;
  const Angle angle = parse_angle(field, option, false);
  if (!radius_rad)
    reject(option, text,
           "an angle needs --field-radius, the field's radius on the sky (e.g. 5arcmin); a bare "
           "number is in units of the field radius");
  return angle.value / *radius_rad;
}

}  // namespace

FieldPoint parse_field_point(std::string_view text, std::string_view option,
                             std::optional<double> radius_rad) {
  const auto fields = split_fields(text);
  if (fields.size() != 2)
    reject(option, text,
           "expected X,Y: numbers in units of the field radius, or angles with --field-radius");
  return {field_coordinate(fields[0], option, text, radius_rad),
          field_coordinate(fields[1], option, text, radius_rad)};
}

FieldGridSpec parse_field_grid(std::string_view text, std::string_view option,
                               std::optional<double> radius_rad) {
  const auto fields = split_fields(text);
  if (fields.size() != 2 && fields.size() != 3)
    reject(option, text, "expected NX,NY[,RADIUS] (e.g. 9,9 or 9,9,0.8)");
  FieldGridSpec grid;
  for (int axis = 0; axis < 2; ++axis) {
    const auto n = parse_integer(fields[static_cast<std::size_t>(axis)]);
    if (!n || *n < 1 || *n > max_field_grid)
      reject(option, text,
             std::string(axis == 0 ? "NX" : "NY") + " must be an integer from 1 to " +
                 std::to_string(max_field_grid));
    (axis == 0 ? grid.nx : grid.ny) = static_cast<int>(*n);
  }
  if (static_cast<long long>(grid.nx) * grid.ny > max_frames)
    reject(option, text, "more than " + std::to_string(max_frames) + " field points");
  if (fields.size() == 3) {
    grid.radius = field_coordinate(fields[2], option, text, radius_rad);
    if (!(grid.radius > 0.0)) reject(option, text, "RADIUS must be greater than zero");
  }
  return grid;
}

Aberration with_field_terms(const FieldModel& model, const Aberration& frame) {
  if (!model.varies()) return frame;
  const FieldPoint point = frame.field.value_or(FieldPoint{});
  Aberration terms = frame;
  const auto append = [&terms](const Aberration& more) {
    terms.seidel.insert(terms.seidel.end(), more.seidel.begin(), more.seidel.end());
    terms.zernike.insert(terms.zernike.end(), more.zernike.begin(), more.zernike.end());
  };
  if (!model.terms.empty()) append(pupil_terms(model.terms, point));
  if (model.table) append(model.table->at(point));
  return terms;
}

Aberration field_shape(const FieldModel& model) {
  // Off axis and off both axes, so that no term's azimuth or power is special.
  Aberration shape = pupil_terms(model.terms, {0.6, 0.8});
  if (model.table)
    for (const TermId& id : model.table->table().terms) set_term(shape, id, 1.0);
  return shape;
}

}  // namespace psfsim

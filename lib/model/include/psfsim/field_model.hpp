#pragma once
// A run's field model (docs/field.md): the aberrations that vary over the field, from the
// options (--seidel-field, --double-zernike) and a table of coefficients at field points
// (--field-table), and the options that place frames in the field (--field, --field-grid,
// --field-radius). Each frame gets the model's terms at its field point on top of its own; a
// frame without one sits on axis.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "psfsim/field_aberration.hpp"
#include "psfsim/field_table.hpp"
#include "psfsim/units.hpp"

namespace psfsim {

struct FieldModel {
  FieldAberrations terms;
  std::shared_ptr<const FieldTableTerms> table;  // nullptr: no --field-table
  std::optional<double> radius_rad;              // --field-radius: the field's radius on the sky
  // As the user wrote them, for the effective configuration and the file's attributes.
  std::string point_text;
  std::string grid_text;
  std::string radius_text;
  std::string table_file;
  std::vector<std::string> seidel_texts;
  std::vector<std::string> double_zernike_texts;

  // Terms that depend on the field: without them a field point changes nothing but the record.
  [[nodiscard]] bool varies() const noexcept { return !terms.empty() || table != nullptr; }
};

// "X,Y": each a number in units of the field radius, or an angle (mas, arcsec, arcmin, deg)
// when `radius_rad` gives the field's radius on the sky. InputError names `option`.
[[nodiscard]] FieldPoint parse_field_point(std::string_view text, std::string_view option,
                                           std::optional<double> radius_rad);

struct FieldGridSpec {
  int nx = 1;
  int ny = 1;
  double radius = 1.0;  // in units of the field radius
};
inline constexpr int max_field_grid = 10'000;

// "NX,NY[,RADIUS]", RADIUS as one coordinate of parse_field_point.
[[nodiscard]] FieldGridSpec parse_field_grid(std::string_view text, std::string_view option,
                                             std::optional<double> radius_rad);

// The terms that `frame` has at its field point (on axis without one): its own, then the
// model's there. Without field-dependent terms the frame is returned as it is.
// Throws InputError when the point is outside the table's hull.
[[nodiscard]] Aberration with_field_terms(const FieldModel& model, const Aberration& frame);

// Every term with_field_terms adds at any point, with placeholder values: the degree and
// layout a field model gives every frame's phase.
[[nodiscard]] Aberration field_shape(const FieldModel& model);

}  // namespace psfsim

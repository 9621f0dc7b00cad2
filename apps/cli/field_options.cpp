#include "field_options.hpp"

#include "psfsim/errors.hpp"
#include "psfsim/field_table_file.hpp"

namespace psfsim::app {

void bind_options(FieldOptions& o, OptionBindings& b) {
  b.bind(Option::field, o.field);
  b.bind(Option::field_grid, o.field_grid);
  b.bind(Option::field_radius, o.field_radius);
  b.bind(Option::seidel_field, o.seidel_field);
  b.bind(Option::double_zernike, o.double_zernike);
  b.bind(Option::field_table, o.field_table);
}

void apply(const FieldOptions& o, RunSpec& s, Aberration& terms) {
  FieldModel& f = s.field;
  f.point_text = o.field;
  f.grid_text = o.field_grid;
  f.radius_text = o.field_radius;
  f.table_file = o.field_table;
  f.seidel_texts = o.seidel_field;
  f.double_zernike_texts = o.double_zernike;
  if (!o.field.empty() && !o.field_grid.empty())
    throw InputError(flag(Option::field) + " and " + flag(Option::field_grid) +
                     ": give one field point for every frame, or a grid of them, not both");
  if (!o.field_radius.empty())
    f.radius_rad =
        parse_angle(o.field_radius, flag(Option::field_radius), false, Sign::positive).value;
  for (const std::string& t : o.seidel_field)
    f.terms.seidel.push_back(parse_seidel_field(t, flag(Option::seidel_field)));
  for (const std::string& t : o.double_zernike)
    f.terms.double_zernike.push_back(parse_double_zernike(t, flag(Option::double_zernike)));
  if (!o.field.empty()) {
    terms.field = parse_field_point(o.field, flag(Option::field), f.radius_rad);
  } else if (!o.field_grid.empty()) {
    (void)parse_field_grid(o.field_grid, flag(Option::field_grid), f.radius_rad);
  }
  if (!o.field_table.empty())
    f.table =
        std::make_shared<const FieldTableTerms>(read_field_table(o.field_table, s.zernike),
                                                flag(Option::field_table) + " " + o.field_table);
  // A model that varies over the field puts every frame somewhere: on axis unless told.
  if (f.varies() && !terms.field) terms.field = FieldPoint{};
}

std::vector<Aberration> field_grid_frames(const FieldOptions& o, const RunSpec& s,
                                          const Aberration& terms) {
  const FieldGridSpec grid =
      parse_field_grid(o.field_grid, flag(Option::field_grid), s.field.radius_rad);
  const std::vector<FieldPoint> points = field_grid(grid.nx, grid.ny, grid.radius);
  std::vector<Aberration> frames(points.size(), terms);
  for (std::size_t i = 0; i < points.size(); ++i) frames[i].field = points[i];
  return frames;
}

}  // namespace psfsim::app

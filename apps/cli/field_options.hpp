#pragma once
// The field options of `psfsim run` (docs/field.md): --field, --field-grid, --field-radius,
// --seidel-field, --double-zernike and --field-table. Each long name is also its config key.
#include <string>
#include <vector>

#include "option_setup.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim::app {

struct FieldOptions {
  std::string field;
  std::string field_grid;
  std::string field_radius;
  std::vector<std::string> seidel_field;
  std::vector<std::string> double_zernike;
  std::string field_table;
};

void bind_options(FieldOptions& options, OptionBindings& bindings);
// Fills spec.field (reading --field-table's file) and places `terms`, the frames' fixed terms,
// at --field's point, or on axis where the field model needs a point. Throws InputError
// naming the option.
void apply(const FieldOptions& options, RunSpec& spec, Aberration& terms);
// --field-grid's frames: `terms` at each of the grid's points, x fastest.
[[nodiscard]] std::vector<Aberration> field_grid_frames(const FieldOptions& options,
                                                        const RunSpec& spec,
                                                        const Aberration& terms);

}  // namespace psfsim::app

#pragma once
// A table of aberration coefficients at field points, the way measured or designed data arrive
// (docs/field.md): a CSV file whose header names field_x, field_y (in units of the field
// radius) and the terms ("Z4", "S3_1", as --frames' headers), one row per field point. Each
// term is interpolated over the field (field_interpolation.hpp) into the pupil terms of a
// frame at any point inside the table's hull.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "psfsim/aberration_sources.hpp"
#include "psfsim/field_interpolation.hpp"

namespace psfsim {

struct FieldTable {
  std::vector<FieldPoint> points;
  std::vector<TermId> terms;
  std::vector<std::vector<double>> values;  // [point][term], in the user's units
};

// Throws InputError naming `path` and the line for a missing field column, an unknown or
// repeated term, a bad number or a row of the wrong width.
[[nodiscard]] FieldTable parse_field_table_csv(std::istream& in, const std::filesystem::path& path,
                                               const ZernikeConvention& convention = {});

class FieldTableTerms {
 public:
  FieldTableTerms(FieldTable table, const std::string& source);
  [[nodiscard]] FieldInterpolation method() const noexcept { return interpolator_.method(); }
  [[nodiscard]] const FieldTable& table() const noexcept { return table_; }
  // The interpolated terms at `point`; InputError when it is outside the table's hull.
  [[nodiscard]] Aberration at(FieldPoint point) const;

 private:
  FieldTable table_;
  FieldInterpolator interpolator_;
};

}  // namespace psfsim

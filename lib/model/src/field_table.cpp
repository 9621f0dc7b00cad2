#include "psfsim/field_table.hpp"

#include <algorithm>
#include <optional>

#include "psfsim/csv_rows.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"

namespace psfsim {
namespace {

[[noreturn]] void reject(const std::string& where, const std::string& why) {
  throw InputError(where + ": " + why);
}

}  // namespace

FieldTable parse_field_table_csv(std::istream& in, const std::filesystem::path& path,
                                 const ZernikeConvention& convention) {
  const std::string name = path.string();
  bool header = false;
  std::optional<std::size_t> x_column, y_column;
  std::size_t width = 0;
  FieldTable table;
  for_each_csv_row(in, name, [&](const std::string& where, const auto& fields) {
    if (!header) {
      header = true;
      width = fields.size();
      for (std::size_t c = 0; c < fields.size(); ++c) {
        const std::string_view f = trim(fields[c]);
        if (f == "field_x" || f == "field_y") {
          std::optional<std::size_t>& slot = f == "field_x" ? x_column : y_column;
          if (slot) reject(where, "the header names " + std::string(f) + " twice");
          slot = c;
          continue;
        }
        const TermId id = parse_term_id(f, where, convention);
        if (std::find(table.terms.begin(), table.terms.end(), id) != table.terms.end())
          reject(where, "the header names " + std::string(f) + " twice");
        table.terms.push_back(id);
      }
      if (!x_column || !y_column)
        reject(where, "the header must name field_x and field_y beside the terms");
      if (table.terms.empty()) reject(where, "the header names no terms (e.g. Z4,Z7,Z8)");
      return;
    }
    if (fields.size() != width)
      reject(where, "has " + std::to_string(fields.size()) + " values, the header names " +
                        std::to_string(width) + " columns");
    std::vector<double> row;
    FieldPoint point;
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const auto v = parse_finite_double(fields[c]);
      if (!v) reject(where, "column " + std::to_string(c + 1) + " is not a finite number");
      if (c == *x_column) point.x = *v;
      else if (c == *y_column) point.y = *v;
      else row.push_back(*v);
    }
    table.points.push_back(point);
    table.values.push_back(std::move(row));
  });
  if (!header) reject(name, "no header line (field_x,field_y and terms such as Z4)");
  if (table.points.empty()) reject(name, "no field points after the header");
  return table;
}

FieldTableTerms::FieldTableTerms(FieldTable table, const std::string& source)
    : table_(std::move(table)), interpolator_(table_.points, source) {}

Aberration FieldTableTerms::at(FieldPoint point) const {
  const std::vector<double> w = interpolator_.weights(point);
  Aberration terms;
  for (std::size_t t = 0; t < table_.terms.size(); ++t) {
    double value = 0.0;
    for (std::size_t k = 0; k < w.size(); ++k)
      if (w[k] != 0.0) value += w[k] * table_.values[k][t];
    set_term(terms, table_.terms[t], value);
  }
  return terms;
}

}  // namespace psfsim

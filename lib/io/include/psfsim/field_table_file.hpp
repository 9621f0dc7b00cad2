#pragma once
// --field-table FILE: a table of coefficients at field points (field_table.hpp), read from a
// CSV file (parse_field_table_csv's syntax) or an HDF5 file whose root holds 1-D datasets of
// one length named as the CSV's columns: field_x, field_y and terms such as Z4 or S3_1.
#include <filesystem>

#include "psfsim/field_table.hpp"

namespace psfsim {

// Throws InputError naming the option and the file when it is not a regular file, cannot be
// read, or its table is malformed.
[[nodiscard]] FieldTable read_field_table(const std::filesystem::path& path,
                                          const ZernikeConvention& convention = {});

}  // namespace psfsim

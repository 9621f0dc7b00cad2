#include "psfsim/field_table_file.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>

#include "file_kind.hpp"
#include "hdf5_handles.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {
namespace {

// The table's columns as float64, every one of `rows` entries; one line naming the dataset.
std::vector<double> read_column(hid_t file, const std::string& name, const std::string& named,
                                std::optional<hsize_t>& rows) {
  const auto fail = [&](const std::string& why) -> void {
    throw InputError(named + ": dataset '" + name + "' " + why);
  };
  const hid_t set_id = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  if (set_id < 0) fail("cannot be opened");
  const h5::Handle set(set_id, H5Dclose, "open " + name);
  const h5::Handle type(H5Dget_type(set.get()), H5Tclose, "read the type of " + name);
  const H5T_class_t type_class = H5Tget_class(type.get());
  if (type_class != H5T_INTEGER && type_class != H5T_FLOAT) fail("is not numeric");
  const h5::Handle space(H5Dget_space(set.get()), H5Sclose, "read the shape of " + name);
  if (H5Sget_simple_extent_ndims(space.get()) != 1) fail("must be 1-D, one entry per field point");
  hsize_t length = 0;
  H5Sget_simple_extent_dims(space.get(), &length, nullptr);
  if (length == 0) fail("is empty");
  if (rows && *rows != length)
    fail("has " + std::to_string(length) + " entries, the others " + std::to_string(*rows));
  rows = length;
  std::vector<double> values(length);
  if (H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0)
    fail("cannot be read");
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i])) fail("entry " + std::to_string(i) + " is not finite");
  return values;
}

FieldTable read_hdf5_table(const std::filesystem::path& path, const std::string& named,
                           const ZernikeConvention& convention) {
  const hid_t file_id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file_id < 0) throw InputError(named + ": cannot open it as an HDF5 file");
  const h5::Handle file(file_id, H5Fclose, "open " + path.string());
  const std::vector<std::string> names = h5::dataset_names(file.get());
  for (const char* axis : {"field_x", "field_y"})
    if (std::find(names.begin(), names.end(), std::string(axis)) == names.end())
      throw InputError(named + ": no dataset '" + axis +
                       "' at the file's root (a table has field_x, field_y and terms)");
  FieldTable table;
  std::optional<hsize_t> rows;
  const std::vector<double> xs = read_column(file.get(), "field_x", named, rows);
  const std::vector<double> ys = read_column(file.get(), "field_y", named, rows);
  std::vector<std::vector<double>> columns;
  for (const std::string& name : names) {
    if (name == "field_x" || name == "field_y") continue;
    table.terms.push_back(parse_term_id(name, named + ": dataset '" + name + "'", convention));
    if (table.terms.back().field_axis >= 0)
      throw InputError(named + ": dataset '" + name + "' names a field coordinate twice");
    columns.push_back(read_column(file.get(), name, named, rows));
  }
  if (table.terms.empty())
    throw InputError(named + ": no term datasets beside field_x and field_y (e.g. Z4, Z7)");
  for (std::size_t p = 0; p < xs.size(); ++p) {
    table.points.push_back({xs[p], ys[p]});
    std::vector<double> row;
    for (const auto& c : columns) row.push_back(c[p]);
    table.values.push_back(std::move(row));
  }
  return table;
}

}  // namespace

FieldTable read_field_table(const std::filesystem::path& path,
                            const ZernikeConvention& convention) {
  const std::string named = flag(Option::field_table) + " " + path.string();
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw InputError(named + ": no such file");
  if (!S_ISREG(st.st_mode))
    throw InputError(named + ": is " + file_kind(st.st_mode) + ", not a table");
  h5::silence_library_errors();
  if (H5Fis_hdf5(path.c_str()) > 0) return read_hdf5_table(path, named, convention);
  std::ifstream in(path);
  if (!in) throw InputError(named + ": cannot read the file");
  return parse_field_table_csv(in, named, convention);
}

}  // namespace psfsim

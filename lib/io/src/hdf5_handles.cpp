#include "hdf5_handles.hpp"

#include <cstdlib>
#include <cstring>

#include "psfsim/errors.hpp"

namespace psfsim::h5 {

namespace {

// HDF5 records a failed system call as "..., errno = 28, error message = '...'".
herr_t find_system_cause(unsigned, const H5E_error2_t* error, void* data) {
  auto* cause = static_cast<std::string*>(data);
  if (!cause->empty() || error->desc == nullptr) return 0;
  const char* at = std::strstr(error->desc, "errno = ");
  if (at != nullptr) {
    const int code = std::atoi(at + 8);
    if (code > 0) *cause = std::strerror(code);
  }
  return 0;
}

std::string failure(const std::string& what) {
  std::string cause;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, find_system_cause, &cause);
  H5Eclear2(H5E_DEFAULT);
  return "cannot " + what + (cause.empty() ? std::string() : ": " + cause);
}

}  // namespace

Handle::Handle(hid_t id, Closer close, const std::string& what) : id_(id), close_(close) {
  if (id_ < 0) throw RuntimeFailure(failure(what));
}

void Handle::reset() noexcept { (void)close(); }

herr_t Handle::close() noexcept {
  herr_t status = 0;
  if (id_ >= 0 && close_ != nullptr) status = close_(id_);
  id_ = H5I_INVALID_HID;
  return status;
}

void silence_library_errors() {
  // HDF5 1.10 closes the files still open at exit, and crashes on one whose close already
  // failed (a full disk): psfsim closes every file it opens, so the library's exit pass is
  // not needed. It must be declined before any other HDF5 call.
  static const bool no_exit_pass = (H5dont_atexit(), true);
  (void)no_exit_pass;
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

void check(herr_t status, const std::string& what) {
  if (status < 0) throw RuntimeFailure(failure(what));
}

namespace {

void write_attribute(hid_t object, const std::string& name, hid_t type, const void* value) {
  const Handle space(H5Screate(H5S_SCALAR), H5Sclose, "create a dataspace");
  const Handle attr(H5Acreate2(object, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                    H5Aclose, "create attribute " + name);
  check(H5Awrite(attr.get(), type, value), "write attribute " + name);
}

}  // namespace

void set_attribute(hid_t object, const std::string& name, const std::string& value) {
  const Handle type(H5Tcopy(H5T_C_S1), H5Tclose, "copy a string type");
  check(H5Tset_size(type.get(), H5T_VARIABLE), "size a string type");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "set a string charset");
  const char* text = value.c_str();
  write_attribute(object, name, type.get(), &text);
}

void set_attribute(hid_t object, const std::string& name, double value) {
  write_attribute(object, name, H5T_NATIVE_DOUBLE, &value);
}

void set_attribute(hid_t object, const std::string& name, long long value) {
  write_attribute(object, name, H5T_NATIVE_LLONG, &value);
}

void set_attribute(hid_t object, const std::string& name, std::span<const double> values) {
  const hsize_t dims[1] = {values.size()};
  const Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose, "create a dataspace");
  const Handle attr(
      H5Acreate2(object, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
      H5Aclose, "create attribute " + name);
  check(H5Awrite(attr.get(), H5T_NATIVE_DOUBLE, values.data()), "write attribute " + name);
}

void write_vector(hid_t parent, const std::string& name, std::span<const double> values) {
  const hsize_t dims[1] = {values.size()};
  const Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose, "create a dataspace");
  const Handle set(H5Dcreate2(parent, name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose, "create dataset " + name);
  if (!values.empty())
    check(H5Dwrite(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()),
          "write dataset " + name);
}

void write_rows(hid_t set, std::size_t first, std::size_t count, std::size_t width,
                const double* values, const std::string& what) {
  const hsize_t memory_dims[1] = {count * width};
  const Handle memory(H5Screate_simple(1, memory_dims, nullptr), H5Sclose, "create a dataspace");
  const Handle file(H5Dget_space(set), H5Sclose, "get the space of " + what);
  const hsize_t start[2] = {first, 0};
  const hsize_t block[2] = {count, width};
  check(H5Sselect_hyperslab(file.get(), H5S_SELECT_SET, start, nullptr, block, nullptr),
        "select rows of " + what);
  check(H5Dwrite(set, H5T_NATIVE_DOUBLE, memory.get(), file.get(), H5P_DEFAULT, values),
        "write " + what);
}

bool is_dataset(hid_t group, const std::string& name) {
  const hid_t object = H5Oopen(group, name.c_str(), H5P_DEFAULT);
  if (object < 0) return false;
  const bool dataset = H5Iget_type(object) == H5I_DATASET;
  H5Oclose(object);
  return dataset;
}

std::vector<std::string> dataset_names(hid_t group) {
  std::vector<std::string> links;
  hsize_t index = 0;
  H5Literate(
      group, H5_INDEX_NAME, H5_ITER_INC, &index,
      [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->push_back(name);
        return 0;
      },
      &links);
  std::erase_if(links, [group](const std::string& l) { return !is_dataset(group, l); });
  return links;
}

}  // namespace psfsim::h5

#include "hdf5_handles.hpp"

#include "psfsim/errors.hpp"

namespace psfsim::h5 {

Handle::Handle(hid_t id, Closer close, const std::string& what) : id_(id), close_(close) {
  if (id_ < 0) throw RuntimeFailure("HDF5: cannot " + what);
}

void Handle::reset() noexcept {
  if (id_ >= 0 && close_ != nullptr) close_(id_);
  id_ = H5I_INVALID_HID;
}

void silence_library_errors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

void check(herr_t status, const std::string& what) {
  if (status < 0) throw RuntimeFailure("HDF5: cannot " + what);
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

}  // namespace psfsim::h5

#pragma once
// RAII for HDF5 identifiers and the few attribute/dataset helpers the writers share.
#include <hdf5.h>

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace psfsim::h5 {

// Owns one hid_t; `close` matches its kind (H5Fclose, H5Dclose, ...).
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer close, const std::string& what);
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
  Handle& operator=(Handle&& o) noexcept {
    std::swap(id_, o.id_);
    std::swap(close_, o.close_);
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }
  void reset() noexcept;
  // Closes now and returns the library's status (reset() ignores it).
  herr_t close() noexcept;
  [[nodiscard]] hid_t get() const noexcept { return id_; }

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer close_ = nullptr;
};

// Silences HDF5's own error printing; psfsim reports failures itself.
void silence_library_errors();
// Throws RuntimeFailure "cannot WHAT: CAUSE", CAUSE the operating system's reason found on
// HDF5's error stack ("No space left on device"), when there is one.
void check(herr_t status, const std::string& what);

void set_attribute(hid_t object, const std::string& name, const std::string& value);
void set_attribute(hid_t object, const std::string& name, double value);
void set_attribute(hid_t object, const std::string& name, long long value);
void set_attribute(hid_t object, const std::string& name, std::span<const double> values);

// Rows [first, first + count) of a float64 dataset of `width` values a row (1-D when width
// is 1) from `values`, contiguous in memory: HDF5 gathers a strided memory selection value
// by value, which made a metrics file's writes the bound of a 10^7-frame run.
void write_rows(hid_t set, std::size_t first, std::size_t count, std::size_t width,
                const double* values, const std::string& what);

// Whether `name` (a path from `group`) is a dataset; the names of the group's own datasets,
// in name order.
[[nodiscard]] bool is_dataset(hid_t group, const std::string& name);
[[nodiscard]] std::vector<std::string> dataset_names(hid_t group);

// A 1-D float64 dataset written in one go.
void write_vector(hid_t parent, const std::string& name, std::span<const double> values);

}  // namespace psfsim::h5

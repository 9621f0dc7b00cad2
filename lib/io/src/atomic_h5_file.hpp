#pragma once
// An HDF5 file that appears at its path only when complete: a PartialFile that HDF5 creates
// and writes, put into place by commit() (never over a file that appeared meanwhile, unless
// `force`), removed if never committed and by the stop-signal handler while partial.
// Root attributes common to every psfsim file are written on creation.
#include <filesystem>
#include <string>

#include "hdf5_handles.hpp"
#include "psfsim/partial_file.hpp"

namespace psfsim::h5 {

struct Provenance {
  std::string command_line;
  std::string config_toml;
};

class AtomicFile {
 public:
  AtomicFile(std::filesystem::path target, bool force, const Provenance& provenance);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  [[nodiscard]] hid_t root() const noexcept { return file_.get(); }
  [[nodiscard]] const std::filesystem::path& target() const noexcept { return partial_.target(); }
  // The path to open the partial file by (memory mapping, space reservation).
  [[nodiscard]] std::filesystem::path partial() const { return partial_.path(); }
  // Every dataset and group handle must be closed before this.
  void commit();

 private:
  // Declared first, destroyed last: HDF5 closes the file before it is removed, and a file
  // HDF5 could not create whole (a full disk) is removed too.
  PartialFile partial_;
  Handle file_;
};

}  // namespace psfsim::h5

#pragma once
// An HDF5 file that appears at its path only when complete: created as .NAME.partial-HOST-PID
// in the same folder (so the rename is atomic), renamed by commit(), removed if never
// committed, and removed by the stop-signal handler while it is partial.
// Root attributes common to every psfsim file are written on creation.
#include <filesystem>
#include <string>

#include "hdf5_handles.hpp"
#include "psfsim/stop_signals.hpp"

namespace psfsim::h5 {

struct Provenance {
  std::string command_line;
  std::string config_toml;
};

class AtomicFile {
 public:
  AtomicFile(std::filesystem::path target, const Provenance& provenance);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  [[nodiscard]] hid_t root() const noexcept { return file_.get(); }
  [[nodiscard]] const std::filesystem::path& target() const noexcept { return target_; }
  [[nodiscard]] const std::filesystem::path& partial() const noexcept { return temporary_; }
  // Every dataset and group handle must be closed before this.
  void commit();

 private:
  std::filesystem::path target_;
  std::filesystem::path temporary_;
  PartialFileGuard guard_;  // a stop signal removes the partial file
  Handle file_;
  bool committed_ = false;
};

}  // namespace psfsim::h5

#pragma once
// A file one rank of `mpirun -n R psfsim run` has made and that is not final yet.
#include <filesystem>
#include <optional>
#include <utility>

#include "psfsim/stop_signals.hpp"

namespace psfsim::app {

// A file this rank made: a stop signal removes it, and so does its destruction unless kept.
class OwnedFile {
 public:
  explicit OwnedFile(std::filesystem::path path) : path_(std::move(path)) {
    on_signal_.emplace(path_);
  }
  OwnedFile(const OwnedFile&) = delete;
  OwnedFile& operator=(const OwnedFile&) = delete;
  ~OwnedFile();
  // Renames it, replacing whatever has that name; the guard follows the name. Throws
  // RuntimeFailure with the system's reason.
  void move_to(const std::filesystem::path& to);
  void keep() noexcept {
    kept_ = true;
    on_signal_.reset();
  }

 private:
  std::filesystem::path path_;
  std::optional<PartialFileGuard> on_signal_;
  bool kept_ = false;
};

}  // namespace psfsim::app

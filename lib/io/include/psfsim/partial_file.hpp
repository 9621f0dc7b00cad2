#pragma once
// An output file built under a partial name beside its target and put into place only when
// complete: the one home of that life (HDF5 files, FITS files, an MPI job's files).
#include <filesystem>
#include <string>
#include <string_view>

#include "psfsim/stop_signals.hpp"

namespace psfsim {

// The folder a file goes in, held open: names in it are created, renamed and removed
// relative to the descriptor, so that a folder renamed meanwhile loses nothing.
class OutputFolder {
 public:
  // Throws RuntimeFailure "cannot create files in folder 'F': reason".
  explicit OutputFolder(const std::filesystem::path& file);
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  ~OutputFolder();

  [[nodiscard]] int fd() const noexcept { return fd_; }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  // The path a library (HDF5, CFITSIO, mmap) opens `name` of this folder by:
  // /proc/self/fd/FD/NAME, which resolves through the descriptor wherever the folder has
  // gone; the folder's own path where /proc is not mounted.
  [[nodiscard]] std::string path_of(std::string_view name) const;

 private:
  std::filesystem::path path_;
  std::string through_fd_;  // "/proc/self/fd/FD/", or the folder's path and '/'
  int fd_ = -1;
};

class PartialFile {
 public:
  // Takes the name partial_file_name(target's name) beside `target`; one left there by a
  // dead process of this host with our PID is removed. Creates nothing: the library that
  // writes the file creates it at path(), which a stop signal removes from now on.
  PartialFile(std::filesystem::path target, bool force);
  // `name` beside `target`: a file this process makes under a name of its job's choosing
  // (the MPI ranks' staged files, named after rank 0), removed as the other is.
  PartialFile(std::filesystem::path target, std::string name, bool force);
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;
  // Removes the file unless kept.
  ~PartialFile();

  [[nodiscard]] const std::filesystem::path& target() const noexcept { return target_; }
  // Its file name now, for messages.
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  // What to create and open it by (OutputFolder::path_of).
  [[nodiscard]] const std::string& path() const noexcept { return path_; }

  // Renames the file to the target. Without `force` nothing is ever replaced: a file that
  // appeared at the target since check_output_path stays, and this throws. With `force` a
  // regular file there is replaced atomically; anything else stays, and this throws.
  // Throws RuntimeFailure without the target's name (the callers name it). The file is
  // still removed by destruction and by a stop signal until keep().
  void put_in_place();
  void keep() noexcept;
  void commit() {
    put_in_place();
    keep();
  }

 private:
  std::filesystem::path target_;
  bool force_;
  OutputFolder folder_;
  std::string name_;
  std::string path_;
  PartialFileGuard guard_;
  bool kept_ = false;
};

// Renames `from` to `to` in the folder `folder_fd` unless `to` exists: renameat2 with
// RENAME_NOREPLACE, or a hard link and an unlink where the file system has no such rename
// (`use_renameat2` false takes that way at once, for its test). False, with errno EEXIST,
// when `to` exists; false with errno for any other failure.
[[nodiscard]] bool rename_without_replacing(int folder_fd, const char* from, const char* to,
                                            bool use_renameat2 = true);

}  // namespace psfsim

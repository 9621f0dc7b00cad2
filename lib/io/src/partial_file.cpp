#include "psfsim/option_table.hpp"
#include "psfsim/partial_file.hpp"

#include <fcntl.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE (glibc 2.28)
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "file_kind.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/output_path.hpp"

namespace psfsim {
namespace fs = std::filesystem;

OutputFolder::OutputFolder(const fs::path& file)
    : path_(file.parent_path().empty() ? fs::path(".") : file.parent_path()) {
  // O_PATH: a folder the user may write but not list is still a folder to write in.
  fd_ = ::open(path_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0)
    throw RuntimeFailure("cannot create files in folder '" + path_.string() +
                         "': " + std::strerror(errno));
  // HDF5 and CFITSIO take a path, not a folder descriptor. /proc/self/fd/FD is the folder
  // itself wherever it has moved, so the library's file and the renames and removals
  // through fd_ always meet in one folder. Checked, since /proc may be missing (a chroot).
  const std::string proc = "/proc/self/fd/" + std::to_string(fd_);
  struct stat by_fd {
  }, by_proc{};
  if (::fstat(fd_, &by_fd) == 0 && ::stat(proc.c_str(), &by_proc) == 0 &&
      by_fd.st_dev == by_proc.st_dev && by_fd.st_ino == by_proc.st_ino)
    through_fd_ = proc + "/";
  else through_fd_ = path_.string() + "/";
}

OutputFolder::~OutputFolder() {
  if (fd_ >= 0) ::close(fd_);
}

std::string OutputFolder::path_of(std::string_view name) const {
  return through_fd_ + std::string(name);
}

bool rename_without_replacing(int folder_fd, const char* from, const char* to, bool use_renameat2) {
  if (use_renameat2) {
    if (::renameat2(folder_fd, from, folder_fd, to, RENAME_NOREPLACE) == 0) return true;
    if (errno != EINVAL && errno != ENOSYS) return false;
  }
  // A file system without RENAME_NOREPLACE (older NFS, some FUSE): a hard link is refused
  // just as atomically where the name exists.
  if (::linkat(folder_fd, from, folder_fd, to, 0) == 0) {
    ::unlinkat(folder_fd, from, 0);
    return true;
  }
  if (errno != EPERM && errno != EOPNOTSUPP) return false;
  // Nor hard links (FAT, exFAT): a check, then the rename; the one window left is there.
  struct stat entry {};
  if (::fstatat(folder_fd, to, &entry, AT_SYMLINK_NOFOLLOW) == 0) {
    errno = EEXIST;
    return false;
  }
  if (errno != ENOENT) return false;
  return ::renameat(folder_fd, from, folder_fd, to) == 0;
}

PartialFile::PartialFile(fs::path target, bool force)
    : PartialFile(target, partial_file_name(target.filename().native()), force) {
  ::unlinkat(folder_.fd(), name_.c_str(), 0);  // only a dead process with our PID left it
}

PartialFile::PartialFile(fs::path target, std::string name, bool force)
    : target_(std::move(target)),
      force_(force),
      folder_(target_),
      name_(std::move(name)),
      path_(folder_.path_of(name_)),
      guard_(folder_.fd(), name_) {}

PartialFile::~PartialFile() {
  if (!kept_) ::unlinkat(folder_.fd(), name_.c_str(), 0);
}

void PartialFile::put_in_place() {
  const std::string to = target_.filename().native();
  if (!force_) {
    if (!rename_without_replacing(folder_.fd(), name_.c_str(), to.c_str())) {
      if (errno == EEXIST)
        throw RuntimeFailure(
            "another file took this name during the run and was kept; this output was "
            "removed (" +
            flag(Option::force) + " replaces it)");
      throw RuntimeFailure("cannot rename " + name_ + " into place: " + std::strerror(errno));
    }
  } else {
    struct stat entry {};
    if (::fstatat(folder_.fd(), to.c_str(), &entry, AT_SYMLINK_NOFOLLOW) == 0 &&
        !S_ISREG(entry.st_mode))
      throw RuntimeFailure(std::string(file_kind(entry.st_mode)) +
                           " took this name during the run and was kept (" + flag(Option::force) +
                           " replaces only a regular file); this output was removed");
    if (::renameat(folder_.fd(), name_.c_str(), folder_.fd(), to.c_str()) != 0)
      throw RuntimeFailure("cannot rename " + name_ + " into place: " + std::strerror(errno));
  }
  name_ = to;
  path_ = folder_.path_of(name_);
  guard_.rename(name_);
}

void PartialFile::keep() noexcept {
  kept_ = true;
  guard_.release();
}

}  // namespace psfsim

#include "psfsim/output_path.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "psfsim/errors.hpp"

namespace psfsim {
namespace fs = std::filesystem;
namespace {

fs::path folder_of(const fs::path& path) {
  const fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

}  // namespace

fs::path partial_name(const fs::path& target) {
  return folder_of(target) /
         ("." + target.filename().string() + ".partial-" + std::to_string(::getpid()));
}

void check_output_path(const fs::path& path, bool force) {
  const std::string name = path.string();
  if (path.empty()) throw InputError("--output: an output file is required (-o FILE)");
  if (path.filename().empty() || fs::is_directory(path))
    throw InputError("--output " + name + ": is a folder, not a file name");
  const fs::path folder = folder_of(path);
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    throw InputError("--output " + name + ": folder '" + folder.string() + "' does not exist");
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw InputError("--output " + name + ": folder '" + folder.string() + "' is not writable");
  if (fs::exists(path, ec) && !force)
    throw InputError("--output " + name + ": file exists (use --force to overwrite)");
  // access() says yes to root on read-only mounts and pseudo file systems: try for real,
  // before any computing, so an unwritable folder is bad input rather than a late failure.
  const fs::path probe = partial_name(path);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    throw InputError("--output " + name + ": cannot create files in folder '" + folder.string() +
                     "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace psfsim

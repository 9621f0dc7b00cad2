#include "psfsim/output_path.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "psfsim/errors.hpp"

namespace psfsim {
namespace fs = std::filesystem;
namespace {

fs::path folder_of(const fs::path& path) {
  const fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  std::string host(name);
  for (char& c : host)  // the name stays one path component
    if (c == '/') c = '_';
  return host;
}

constexpr std::string_view partial_marker = ".partial-";

}  // namespace

fs::path partial_name(const fs::path& target) {
  return folder_of(target) / ("." + target.filename().string() + std::string(partial_marker) +
                              host_name() + "-" + std::to_string(::getpid()));
}

void remove_stale_partials(const fs::path& target) {
  const std::string prefix = std::string(partial_marker) + host_name() + "-";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder_of(target), ec)) {
    const std::string name = entry.path().filename().string();
    const auto at = name.rfind(prefix);
    if (name.empty() || name[0] != '.' || at == std::string::npos) continue;
    const std::string digits = name.substr(at + prefix.size());
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::strtol(digits.c_str(), nullptr, 10);
    // Only a process that no longer exists on this host; EPERM means it exists.
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      fs::remove(entry.path(), ignored);
    }
  }
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
  if (fs::exists(path, ec) && !force)
    throw InputError("--output " + name + ": file exists (use --force to overwrite)");
  // A real file, not access(): root passes access() on read-only mounts and pseudo file
  // systems. Refused here, before any computing, as the I/O failure it is (exit 3).
  const fs::path probe = partial_name(path);
  fs::remove(probe, ec);  // left by an earlier process of this host with our PID: dead
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    throw RuntimeFailure("--output " + name + ": cannot create files in folder '" +
                         folder.string() + "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  remove_stale_partials(path);
}

}  // namespace psfsim

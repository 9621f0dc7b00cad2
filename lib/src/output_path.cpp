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
#include "psfsim/stop_signals.hpp"

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

// The partial file, and the empty file that tries the folder before anything is computed.
constexpr std::string_view partial_marker = ".partial-";
constexpr std::string_view probe_marker = ".probe-";

fs::path marked_name(const fs::path& target, std::string_view marker) {
  return folder_of(target) / ("." + target.filename().string() + std::string(marker) +
                              host_name() + "-" + std::to_string(::getpid()));
}

// The PID of a partial or probe file of this host, or 0 for any other name.
long pid_of_ours(const std::string& name) {
  if (name.empty() || name[0] != '.') return 0;
  for (const std::string_view marker : {partial_marker, probe_marker}) {
    const std::string prefix = std::string(marker) + host_name() + "-";
    const auto at = name.rfind(prefix);
    if (at == std::string::npos) continue;
    const std::string digits = name.substr(at + prefix.size());
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return 0;
    return std::strtol(digits.c_str(), nullptr, 10);
  }
  return 0;
}

}  // namespace

fs::path partial_name(const fs::path& target) { return marked_name(target, partial_marker); }

void remove_stale_partials(const fs::path& target) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder_of(target), ec)) {
    const long pid = pid_of_ours(entry.path().filename().string());
    // Only a process that no longer exists on this host; EPERM means it exists.
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      std::error_code ignored;
      fs::remove(entry.path(), ignored);
    }
  }
}

void check_output_path(const fs::path& path, bool force, std::string_view option) {
  const std::string name = std::string(option) + " " + path.string();
  if (path.empty())
    throw InputError(std::string(option) + ": an output file is required" +
                     (option == "--output" ? " (-o FILE)" : ""));
  if (path.filename().empty() || fs::is_directory(path))
    throw InputError(name + ": is a folder, not a file name");
  const fs::path folder = folder_of(path);
  std::error_code ec;
  if (fs::exists(path, ec) && !force)
    throw InputError(name + ": file exists (use --force to overwrite)");
  // A real file, not access(): root passes access() on read-only mounts and pseudo file
  // systems. Refused here, before any computing, as the I/O failure it is (exit 3).
  const fs::path probe = marked_name(path, probe_marker);
  fs::remove(probe, ec);  // left by an earlier process of this host with our PID: dead
  const PartialFileGuard guard(probe);  // a stop signal now removes it too
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    throw RuntimeFailure(name + ": cannot create files in folder '" +
                         folder.string() + "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
  remove_stale_partials(path);
}

}  // namespace psfsim

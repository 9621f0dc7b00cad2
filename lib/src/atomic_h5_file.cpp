#include "atomic_h5_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "psfsim/build_config.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/output_path.hpp"

namespace psfsim {
namespace fs = std::filesystem;

namespace {

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

fs::path folder_of(const fs::path& path) {
  const fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

}  // namespace

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
  const fs::path probe = h5::temporary_name(path);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    throw InputError("--output " + name + ": cannot create files in folder '" + folder.string() +
                     "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

namespace h5 {

fs::path temporary_name(const fs::path& target) {
  return folder_of(target) /
         ("." + target.filename().string() + ".partial-" + std::to_string(::getpid()));
}

AtomicFile::AtomicFile(fs::path target, const Provenance& provenance)
    : target_(std::move(target)), temporary_(temporary_name(target_)) {
  silence_library_errors();
  std::error_code ec;
  fs::remove(temporary_, ec);  // a leftover of a killed run with our pid
  file_ = Handle(H5Fcreate(temporary_.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT), H5Fclose,
                 "create " + temporary_.string());
  const hid_t root = file_.get();
  set_attribute(root, "psfsim_version", std::string(PSFSIM_VERSION));
  set_attribute(root, "git_commit", std::string(PSFSIM_GIT_COMMIT));
  set_attribute(root, "created_utc", utc_now_iso8601());
  set_attribute(root, "command_line", provenance.command_line);
  set_attribute(root, "config", provenance.config_toml);
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    file_.reset();
    std::error_code ec;
    fs::remove(temporary_, ec);
  }
}

void AtomicFile::commit() {
  check(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), "flush " + temporary_.string());
  file_.reset();
  std::error_code ec;
  fs::rename(temporary_, target_, ec);
  if (ec)
    throw RuntimeFailure("cannot rename " + temporary_.string() + " to " + target_.string() +
                         ": " + ec.message());
  committed_ = true;
}

}  // namespace h5
}  // namespace psfsim

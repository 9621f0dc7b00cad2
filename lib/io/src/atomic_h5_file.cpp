#include "atomic_h5_file.hpp"

#include <ctime>

#include "psfsim/build_commit.hpp"
#include "psfsim/build_config.hpp"
#include "psfsim/errors.hpp"

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

}  // namespace

namespace h5 {

AtomicFile::AtomicFile(fs::path target, bool force, const Provenance& provenance)
    : partial_(std::move(target), force) {
  silence_library_errors();
  file_ = Handle(H5Fcreate(partial_.path().c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT),
                 H5Fclose, "create " + partial_.name());
  const hid_t root = file_.get();
  set_attribute(root, "psfsim_version", std::string(PSFSIM_VERSION));
  set_attribute(root, "git_commit", std::string(git_commit()));
  set_attribute(root, "created_utc", utc_now_iso8601());
  set_attribute(root, "command_line", provenance.command_line);
  set_attribute(root, "config", provenance.config_toml);
}

void AtomicFile::commit() {
  check(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), "flush the file");
  check(file_.close(), "close the file");
  partial_.commit();
}

}  // namespace h5
}  // namespace psfsim

#include "owned_file.hpp"

#include <system_error>

#include "psfsim/errors.hpp"

namespace psfsim::app {
namespace fs = std::filesystem;

OwnedFile::~OwnedFile() {
  if (!kept_) {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
}

void OwnedFile::move_to(const fs::path& to) {
  std::optional<PartialFileGuard> guard_to;
  guard_to.emplace(to);  // a signal during the rename removes either name
  std::error_code ec;
  fs::rename(path_, to, ec);
  if (ec)
    throw RuntimeFailure("cannot rename " + path_.filename().string() + " to " +
                         to.filename().string() + ": " + ec.message());
  path_ = to;
  on_signal_.reset();
  on_signal_.emplace(to);
}

}  // namespace psfsim::app

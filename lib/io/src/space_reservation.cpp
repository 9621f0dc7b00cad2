#include "space_reservation.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "psfsim/errors.hpp"
#include "psfsim/memory_budget.hpp"

namespace psfsim {
namespace {

// Each step holds the file's lock while it allocates; 32 MiB keeps a frame write's wait for
// it to a few milliseconds.
constexpr std::size_t step_bytes = std::size_t{32} << 20;

bool lack_of_space(int error) { return error == ENOSPC || error == EFBIG || error == EDQUOT; }

}  // namespace

SpaceReservation::SpaceReservation(const std::filesystem::path& file, std::size_t begin,
                                   std::size_t end)
    : begin_(begin),
      end_(std::max(begin, end)),
      reserved_(begin),
      thread_([this, file] { reserve(file); }) {}

SpaceReservation::~SpaceReservation() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  thread_.join();
}

void SpaceReservation::reserve(const std::filesystem::path& file) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  int error = fd < 0 ? errno : 0;
  for (std::size_t offset = begin_; error == 0 && offset < end_;) {
    const std::size_t length = std::min(step_bytes, end_ - offset);
    if (::fallocate(fd, 0, static_cast<off_t>(offset), static_cast<off_t>(length)) != 0) {
      error = errno;
      break;
    }
    offset += length;
    const std::lock_guard lock(mutex_);
    reserved_ = offset;
    if (stopping_) break;
    progressed_.notify_all();
  }
  if (fd >= 0) ::close(fd);
  const std::lock_guard lock(mutex_);
  finished_ = true;
  error_ = error;
  progressed_.notify_all();
}

bool SpaceReservation::require_space(std::size_t end) {
  end = std::min(end, end_);
  std::unique_lock lock(mutex_);
  progressed_.wait(lock, [&] { return reserved_ >= end || finished_; });
  if (reserved_ >= end) return true;
  if (lack_of_space(error_))
    throw RuntimeFailure("cannot reserve " + format_bytes(static_cast<double>(end_ - begin_)) +
                         " for the frames: " + std::strerror(error_));
  return false;
}

}  // namespace psfsim

#pragma once
// Allocates a file's range for its frames ahead of the writes, on a thread of its own and in
// steps, so that the disk's block allocation (on tmpfs: allocating every page, a third of a
// write's cost) runs while the backend starts and beside the frame copies instead of inside
// them, and a disk too small for the frames says so, with the size, before the frames that
// would not fit are computed into a doomed file.
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <thread>

namespace psfsim {

class SpaceReservation {
 public:
  // fallocate of the file's bytes [begin, end), which extends the file's size to cover them:
  // MappedFrames copies into those pages through a mapping, which must not reach past the
  // file's end. A run that fails or is stopped removes the whole file.
  SpaceReservation(const std::filesystem::path& file, std::size_t begin, std::size_t end);
  SpaceReservation(const SpaceReservation&) = delete;
  SpaceReservation& operator=(const SpaceReservation&) = delete;
  ~SpaceReservation();

  // Waits until the file's bytes up to `end` are allocated, and says whether they are.
  // Throws RuntimeFailure when they cannot be for want of space (no space left, file size
  // limit, quota). false: the file system cannot allocate ahead (EOPNOTSUPP) or failed
  // otherwise; its writes then allocate as they go, and report what they meet.
  bool require_space(std::size_t end);

 private:
  void reserve(const std::filesystem::path& file);

  std::size_t begin_;
  std::size_t end_;
  std::mutex mutex_;
  std::condition_variable progressed_;
  std::size_t reserved_;  // allocated up to here; guarded by mutex_, as are the three below
  bool finished_ = false;
  int error_ = 0;  // errno of the step that failed
  bool stopping_ = false;
  std::thread thread_;  // last: it starts once the members above exist
};

}  // namespace psfsim

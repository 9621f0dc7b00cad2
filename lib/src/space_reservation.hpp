#pragma once
// Reserves a file's space for its frames ahead of the writes, on a thread of its own and in
// steps, so that the disk's block allocation (on tmpfs: allocating and zeroing every page,
// 40% of a write's cost) runs beside the frame writes instead of inside them, and a disk too
// small for the frames says so, with the size, before the frames that would not fit are
// computed into a doomed file.
#include <condition_variable>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <thread>

namespace psfsim {

class SpaceReservation {
 public:
  // fallocate(FALLOC_FL_KEEP_SIZE) of [0, bytes): the file's size is unchanged, so a run that
  // fails or is stopped leaves nothing more behind than one that did not reserve.
  SpaceReservation(const std::filesystem::path& file, std::size_t bytes);
  SpaceReservation(const SpaceReservation&) = delete;
  SpaceReservation& operator=(const SpaceReservation&) = delete;
  ~SpaceReservation();

  // Waits until the file's first `bytes` are reserved; throws RuntimeFailure when they cannot
  // be (no space left, file size limit). A file system that cannot reserve (EOPNOTSUPP) is
  // not an error: its writes allocate as they go.
  void require_space(std::size_t bytes);

 private:
  void reserve(const std::filesystem::path& file);

  std::size_t total_;
  std::mutex mutex_;
  std::condition_variable progressed_;
  std::size_t reserved_ = 0;  // guarded by mutex_, as are the two below
  bool finished_ = false;
  int error_ = 0;             // errno of the step that failed
  bool stopping_ = false;
  std::thread thread_;        // last: it starts once the members above exist
};

}  // namespace psfsim

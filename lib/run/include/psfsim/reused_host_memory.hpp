#pragma once
// Host memory for frames handed to a caller to keep (the Python module's arrays of a batch),
// taken back for reuse once the caller lets go.
//
// Why: a block above glibc's mmap threshold (32 MiB at most) comes fresh from the kernel on
// every allocation and goes back on every free, and each fresh page costs a fault and its
// zeroing on first write, which for a batch of frames costs more than copying them there.
// A caller that asks for the same size call after call (a training loop, a Monte Carlo) gets
// back a block it let go of, its pages already in place.
#include <cstddef>
#include <memory>

namespace psfsim {

class ReusedHostMemory {
 public:
  // At most `kept_blocks` blocks wait for reuse; one more let go frees the oldest.
  explicit ReusedHostMemory(std::size_t kept_blocks = 2);
  ~ReusedHostMemory();
  ReusedHostMemory(const ReusedHostMemory&) = delete;
  ReusedHostMemory& operator=(const ReusedHostMemory&) = delete;

  // `bytes` of host memory (aligned for any real): a waiting block of exactly that size, or
  // new memory. When the last holder lets go, the block waits for reuse while this object
  // lives, and is freed once it is gone.
  [[nodiscard]] std::shared_ptr<void> take(std::size_t bytes);
  // Blocks waiting for reuse.
  [[nodiscard]] std::size_t waiting() const;

 private:
  struct Shelf;
  std::shared_ptr<Shelf> shelf_;
};

}  // namespace psfsim

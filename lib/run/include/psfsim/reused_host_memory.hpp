#pragma once
// Host memory for frames handed to a caller to keep (the Python module's arrays of a batch),
// taken back for reuse once the caller lets go.
//
// Why: a block above glibc's mmap threshold (32 MiB at most) comes fresh from the kernel on
// every allocation and goes back on every free, and each fresh page costs a fault and its
// zeroing on first write, which for a batch of frames costs more than copying them there.
// A caller that asks for the same size call after call (a training loop, a Monte Carlo) gets
// back a block it let go of, its pages already in place. Memory pinned for a device's copies
// (Backend::host_frame_memory) costs more still to make, and is reused the same way.
#include <cstddef>
#include <functional>
#include <memory>

namespace psfsim {

class ReusedHostMemory {
 public:
  // New memory of `bytes` bytes, or null where there is none to be had of that kind.
  using Allocate = std::function<std::shared_ptr<void>(std::size_t bytes)>;

  // At most `kept_blocks` blocks wait for reuse; one more let go frees the oldest. Blocks
  // come from `allocate`, by default plain host memory.
  explicit ReusedHostMemory(std::size_t kept_blocks = 2, Allocate allocate = {});
  ~ReusedHostMemory();
  ReusedHostMemory(const ReusedHostMemory&) = delete;
  ReusedHostMemory& operator=(const ReusedHostMemory&) = delete;

  // `bytes` of host memory (aligned for any real): a waiting block of exactly that size, or
  // new memory; null only where the allocator gave none. When the last holder lets go, the
  // block waits for reuse while this object lives, and is freed once it is gone.
  [[nodiscard]] std::shared_ptr<void> take(std::size_t bytes);
  // Blocks waiting for reuse.
  [[nodiscard]] std::size_t waiting() const;

 private:
  struct Shelf;
  std::shared_ptr<Shelf> shelf_;
  Allocate allocate_;
};

}  // namespace psfsim

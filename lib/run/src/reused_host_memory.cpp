#include "psfsim/reused_host_memory.hpp"

#include <mutex>
#include <utility>
#include <vector>

namespace psfsim {

struct ReusedHostMemory::Shelf {
  struct Block {
    std::unique_ptr<unsigned char[]> memory;
    std::size_t bytes;
  };
  // Room for every block from the start: letting go (a deleter) allocates nothing.
  explicit Shelf(std::size_t most) : most(most) { blocks.reserve(most); }

  mutable std::mutex mutex;
  std::vector<Block> blocks;  // oldest first
  std::size_t most;
};

ReusedHostMemory::ReusedHostMemory(std::size_t kept_blocks)
    : shelf_(std::make_shared<Shelf>(kept_blocks)) {}

// Blocks still held by callers free themselves when let go (their deleter finds the shelf gone).
ReusedHostMemory::~ReusedHostMemory() = default;

std::shared_ptr<void> ReusedHostMemory::take(std::size_t bytes) {
  std::unique_ptr<unsigned char[]> memory;
  {
    const std::lock_guard lock(shelf_->mutex);
    for (auto it = shelf_->blocks.begin(); it != shelf_->blocks.end(); ++it) {
      if (it->bytes != bytes) continue;
      memory = std::move(it->memory);
      shelf_->blocks.erase(it);
      break;
    }
  }
  if (!memory) memory.reset(new unsigned char[bytes]);
  // The caller may let go on any thread (a NumPy array's last reference), after this is gone.
  const std::weak_ptr<Shelf> shelf = shelf_;
  return {memory.release(), [shelf, bytes](void* address) {
            std::unique_ptr<unsigned char[]> block(static_cast<unsigned char*>(address));
            const std::shared_ptr<Shelf> open = shelf.lock();
            if (!open || open->most == 0) return;
            std::unique_ptr<unsigned char[]> dropped;  // freed outside the lock
            const std::lock_guard lock(open->mutex);
            if (open->blocks.size() == open->most) {
              dropped = std::move(open->blocks.front().memory);
              open->blocks.erase(open->blocks.begin());
            }
            open->blocks.push_back({std::move(block), bytes});
          }};
}

std::size_t ReusedHostMemory::waiting() const {
  const std::lock_guard lock(shelf_->mutex);
  return shelf_->blocks.size();
}

}  // namespace psfsim

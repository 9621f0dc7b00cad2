#include "psfsim/reused_host_memory.hpp"

#include <mutex>
#include <utility>
#include <vector>

namespace psfsim {

struct ReusedHostMemory::Shelf {
  struct Block {
    std::shared_ptr<void> memory;  // owns the allocation, freed by its own deleter
    std::size_t bytes;
  };
  // Room for every block from the start: letting go (a deleter) allocates nothing.
  explicit Shelf(std::size_t most) : most(most) { blocks.reserve(most); }

  mutable std::mutex mutex;
  std::vector<Block> blocks;  // oldest first
  std::size_t most;
};

ReusedHostMemory::ReusedHostMemory(std::size_t kept_blocks, Allocate allocate)
    : shelf_(std::make_shared<Shelf>(kept_blocks)), allocate_(std::move(allocate)) {
  if (!allocate_)
    allocate_ = [](std::size_t bytes) -> std::shared_ptr<void> {
      return std::shared_ptr<unsigned char[]>(new unsigned char[bytes]);
    };
}

// Blocks still held by callers free themselves when let go (their deleter finds the shelf gone).
ReusedHostMemory::~ReusedHostMemory() = default;

std::shared_ptr<void> ReusedHostMemory::take(std::size_t bytes) {
  std::shared_ptr<void> memory;
  {
    const std::lock_guard lock(shelf_->mutex);
    for (auto it = shelf_->blocks.begin(); it != shelf_->blocks.end(); ++it) {
      if (it->bytes != bytes) continue;
      memory = std::move(it->memory);
      shelf_->blocks.erase(it);
      break;
    }
  }
  if (!memory) memory = allocate_(bytes);
  if (!memory) return nullptr;
  // The caller may let go on any thread (a NumPy array's last reference), after this is gone.
  void* const address = memory.get();
  const std::weak_ptr<Shelf> shelf = shelf_;
  return {address, [shelf, bytes, block = std::move(memory)](void*) mutable {
            const std::shared_ptr<Shelf> open = shelf.lock();
            if (!open || open->most == 0) return;  // `block` frees it with this deleter
            std::shared_ptr<void> dropped;         // freed outside the lock
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

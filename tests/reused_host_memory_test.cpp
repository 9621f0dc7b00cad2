// ReusedHostMemory: a block let go comes back for the same size, others get new memory, at most
// the stated number wait, and blocks outliving their source free themselves (the sanitizer
// build sees any leak or double free).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <thread>

#include "psfsim/reused_host_memory.hpp"

namespace psfsim {
namespace {

TEST(ReusedHostMemory, ABlockLetGoComesBackForItsSize) {
  ReusedHostMemory memory;
  std::shared_ptr<void> first = memory.take(3 << 20);
  std::memset(first.get(), 1, 3 << 20);
  void* const address = first.get();
  first.reset();
  EXPECT_EQ(memory.waiting(), 1u);
  const std::shared_ptr<void> other_size = memory.take(1 << 20);
  EXPECT_NE(other_size.get(), address);
  EXPECT_EQ(memory.waiting(), 1u);
  const std::shared_ptr<void> again = memory.take(3 << 20);
  EXPECT_EQ(again.get(), address);
  EXPECT_EQ(memory.waiting(), 0u);
}

TEST(ReusedHostMemory, AtMostTheStatedBlocksWait) {
  ReusedHostMemory memory(2);
  {
    const std::shared_ptr<void> a = memory.take(4096), b = memory.take(4096), c = memory.take(4096);
    EXPECT_NE(a.get(), b.get());
    EXPECT_NE(b.get(), c.get());
  }
  EXPECT_EQ(memory.waiting(), 2u);
  ReusedHostMemory none(0);
  none.take(4096).reset();
  EXPECT_EQ(none.waiting(), 0u);
}

TEST(ReusedHostMemory, BlocksOutliveTheirSourceAndMayBeLetGoOnAnyThread) {
  std::shared_ptr<void> kept;
  {
    ReusedHostMemory memory;
    kept = memory.take(1 << 16);
    memory.take(1 << 16).reset();  // waits, then goes with the source
  }
  std::thread([held = std::move(kept)]() mutable { held.reset(); }).join();
  EXPECT_EQ(kept, nullptr);
}

// Blocks of an allocator's kind (a device's pinned memory) come from it, and come back for
// reuse as plain blocks do; where it has none to give, take() says so with null.
TEST(ReusedHostMemory, BlocksComeFromTheGivenAllocatorOrNotAtAll) {
  int made = 0, freed = 0;
  bool refuse = false;
  ReusedHostMemory memory(1, [&](std::size_t bytes) -> std::shared_ptr<void> {
    if (refuse) return nullptr;
    ++made;
    return {::operator new(bytes), [&freed](void* p) {
              ++freed;
              ::operator delete(p);
            }};
  });
  std::shared_ptr<void> a = memory.take(4096);
  void* const address = a.get();
  a.reset();
  EXPECT_EQ(freed, 0);
  EXPECT_EQ(memory.take(4096).get(), address);  // taken and let go again
  EXPECT_EQ(made, 1);
  {
    const std::shared_ptr<void> b = memory.take(4096), c = memory.take(4096);
    EXPECT_EQ(made, 2);
  }
  EXPECT_EQ(freed, 1);  // one waits, the other goes back to its allocator
  refuse = true;
  EXPECT_EQ(memory.take(8192), nullptr);
  EXPECT_NE(memory.take(4096), nullptr);  // a waiting block needs no allocator
}

}  // namespace
}  // namespace psfsim

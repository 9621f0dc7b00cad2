#include "psfsim/backend.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace psfsim {
namespace {

void host_copy(void* to, const void* from, std::size_t bytes) { std::memcpy(to, from, bytes); }

}  // namespace

std::shared_ptr<void> Backend::frame_memory(std::size_t bytes, int& device) const {
  device = -1;
  // Whole cache lines, as the frames' consumers (NumPy, DLPack) read them in vectors.
  constexpr std::size_t line = 64;
  void* p = std::aligned_alloc(line, std::max(line, (bytes + line - 1) / line * line));
  if (p == nullptr) throw std::bad_alloc();
  return {p, std::free};
}

Backend::MemoryCopy Backend::memory_copy() const { return host_copy; }

}  // namespace psfsim

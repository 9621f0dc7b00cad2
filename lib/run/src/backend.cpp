#include "psfsim/backend.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace psfsim {
namespace {

void host_copy(void* to, const void* from, std::size_t bytes, int /*device*/) {
  std::memcpy(to, from, bytes);
}

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

FrameBlock Backend::compute_into(std::span<const AberrationPolynomial> frames, void* frames_out) {
  FrameBlock block = compute(frames);
  if (block.data != nullptr) {
    std::memcpy(frames_out, block.data, block.frames * plan().frame_bytes());
    block.data = frames_out;
  }
  return block;
}

}  // namespace psfsim

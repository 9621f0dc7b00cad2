#include "psfsim/file_chunks.hpp"

#include <algorithm>

namespace psfsim {

ChunkShape psf_chunk_shape(std::size_t k, std::size_t real, std::size_t batch) {
  const std::size_t frame_bytes = k * k * real;
  ChunkShape c;
  if (frame_bytes <= target_chunk_bytes) {
    c.frames = std::clamp<std::size_t>(target_chunk_bytes / frame_bytes, 1,
                                       std::max<std::size_t>(batch, 1));
    c.rows = k;
  } else {
    c.rows = std::clamp<std::size_t>(target_chunk_bytes / (k * real), 1, k);
  }
  return c;
}

}  // namespace psfsim

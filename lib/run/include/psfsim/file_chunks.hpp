#pragma once
// The HDF5 chunk shape of /psf (docs/spec.md §8): whole frames, about 4 MiB per chunk, so that a
// batch of small frames is written in a few large pieces instead of one chunk per frame;
// a frame larger than that is split by rows. The run sizes its compute calls in whole
// chunks, so that every write but a batch's last covers whole chunks.
#include <cstddef>

namespace psfsim {

inline constexpr std::size_t target_chunk_bytes = std::size_t{4} << 20;

struct ChunkShape {
  std::size_t frames = 1;  // frames per chunk (1 when a frame is split by rows)
  std::size_t rows = 1;    // rows per chunk: the frame's K unless it is split
};

[[nodiscard]] ChunkShape psf_chunk_shape(std::size_t frame_edge, std::size_t bytes_per_real,
                                         std::size_t batch);

}  // namespace psfsim

#include "psfsim/rank_files.hpp"

#include <string>

namespace psfsim {

FrameRange rank_frames(std::size_t frames, int rank, int ranks) noexcept {
  const auto r = static_cast<std::size_t>(rank);
  const auto n = static_cast<std::size_t>(ranks);
  const std::size_t base = frames / n;
  const std::size_t extra = frames % n;
  return {r * base + (r < extra ? r : extra), base + (r < extra ? 1 : 0)};
}

std::filesystem::path rank_file_path(const std::filesystem::path& output, int rank, int ranks) {
  std::filesystem::path path = output;
  path += ".rank-" + std::to_string(rank) + "-of-" + std::to_string(ranks) + ".h5";
  return path;
}

}  // namespace psfsim

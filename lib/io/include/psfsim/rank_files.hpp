#pragma once
// How a batch is shared among the ranks of `mpirun -n R psfsim run` (docs/scaling.md): each
// rank computes one contiguous block of frames into a file of its own beside the output.
#include <cstddef>
#include <filesystem>

namespace psfsim {

struct FrameRange {
  std::size_t first = 0;
  std::size_t count = 0;
};

// Rank `rank` of `ranks` gets frames [first, first + count): contiguous blocks in rank order,
// the first `frames % ranks` ranks one frame more than the others.
[[nodiscard]] FrameRange rank_frames(std::size_t frames, int rank, int ranks) noexcept;

// The file rank `rank` writes: OUT.rank-R-of-N.h5 in the output's folder (out.h5 ->
// out.h5.rank-0-of-2.h5). The output's virtual datasets read it by this relative name.
[[nodiscard]] std::filesystem::path rank_file_path(const std::filesystem::path& output, int rank,
                                                   int ranks);

// Removes the rank files of `output` left by an earlier run with another number of ranks
// (`ranks` = 0: every rank file, for an output now written by one process). Called once the
// new output is in place, whose data no longer lives in them.
void remove_other_rank_files(const std::filesystem::path& output, int ranks) noexcept;

}  // namespace psfsim

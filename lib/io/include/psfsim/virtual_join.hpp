#pragma once
// The file the user named, for a run whose frames were written by several processes (MPI
// ranks), one file each: every per-frame dataset becomes an HDF5 virtual dataset that
// concatenates the parts along axis 0, so that h5py reads it as one ordinary dataset. The
// parts must stay beside it (docs/scaling.md).
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace psfsim {

struct PartFile {
  std::filesystem::path path;  // where it is read now
  std::size_t frames = 0;      // its leading dimension
  // The file name the virtual datasets give it, relative to the target's folder: path's own
  // when empty (a part renamed after the join gives the name it will have).
  std::string final_name;
};

// Writes `target` atomically (a partial name, then a rename over any file of that name: the
// MPI job's staged output is its own). Joined, in part order:
// /psf and every dataset under /parameters and /metrics whose leading dimension is each
// part's frame count; the frame-number scale of /psf's first axis is rewritten 0..B-1; other
// datasets, groups, attributes and dimension scales come from the first part, with any
// attribute `frames` set to B. /timings is the first part's, and /timings/rank_R holds part
// R's (R >= 1). The root attributes `command_line` and `config` are the ones given (the
// user's run, not one part's). Throws RuntimeFailure naming the file that failed.
void join_part_files(const std::filesystem::path& target, const std::vector<PartFile>& parts,
                     const std::string& command_line, const std::string& config_toml);

}  // namespace psfsim

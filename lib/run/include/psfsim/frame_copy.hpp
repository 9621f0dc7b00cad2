#pragma once
// Copies of a block of frames on the host into a caller's memory (a GPU call slot's frames into
// a Python caller's array), which the copy's own thread does not read again.
#include <cstddef>

namespace psfsim {

// Copies `bytes` from `from` to `to` (not overlapping). A large block (4 MiB or more) arrives
// from a device at tens of GB/s, more than one core copies: it is copied in pieces on the
// process's workers, each with stores that bypass the cache, so that the destination's lines
// are not first read in (a plain copy's stores read every line they write: half again the
// memory traffic). A small block is copied in place, its destination left in the cache for a
// reader that follows.
void copy_frames(void* to, const void* from, std::size_t bytes);

}  // namespace psfsim

#pragma once
// The /psf dataset of docs/spec.md §3 and §8: chunked in about 4 MiB of whole frames, with a chunk
// cache that holds a partly written chunk until it is complete, optionally compressed, and
// with dimension scales (frame, y, x) so that h5py and xarray users get axes for free.
#include <cstddef>

#include "hdf5_handles.hpp"
#include "psfsim/compression.hpp"
#include "psfsim/enums.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim::h5 {

// Throws RuntimeFailure when the compression's filter is missing (naming the package).
[[nodiscard]] Handle create_psf_dataset(hid_t root, std::size_t frames, int edge,
                                        Precision precision, const Compression& compression);

// /frame (index), /y and /x (pixel centres in lambda/D from the optical axis), attached to
// the three dimensions of /psf; the physical centres (/y_arcsec, /x_um, ...) as coordinates
// along /y and /x, which /psf's `coordinates` attribute names.
void attach_dimension_scales(hid_t root, hid_t psf, std::size_t frames, const Geometry& g);

// How /psf's frames lie in the file, for writing them.
struct PsfLayout {
  std::size_t frames = 0;  // B
  std::size_t edge = 0;    // K
  Precision precision = Precision::single;
  bool compressed = false;
};

// Frames [first, first + count) from `data` (K*K native reals each), through HDF5: the
// compressed frames, and uncompressed ones where the file's space cannot be allocated ahead
// (elsewhere MappedFrames copies them). Uncompressed chunks that the range covers whole go
// to the file as they are (H5Dwrite_chunk: no copy through the chunk cache, no dataspace
// conversion); the rest through an ordinary hyperslab write.
void write_psf_frames(hid_t psf, const PsfLayout& layout, std::size_t first, std::size_t count,
                      const void* data);

}  // namespace psfsim::h5

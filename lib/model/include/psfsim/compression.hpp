#pragma once
// --compression none|deflate[:LEVEL]|lz4|zstd[:LEVEL] for /psf (docs/spec.md §8). deflate is HDF5's
// byte shuffle plus deflate, built into every HDF5 and readable by any h5py; lz4 and zstd
// are HDF5 filter plugins that the reader needs too: lz4 from Debian's hdf5-filter-plugin,
// zstd as Blosc with byte shuffle and the zstd codec (hdf5-filter-plugin-blosc-serial),
// since Debian has no stand-alone zstd filter.
#include <string>
#include <string_view>

namespace psfsim {

struct Compression {
  enum class Kind { none, deflate, lz4, zstd };
  Kind kind = Kind::none;
  int level = 0;  // deflate 1-9 (default 4), zstd (Blosc's clevel) 1-9 (default 5)

  [[nodiscard]] std::string text() const;  // as the option reads back
};

// Throws InputError naming --compression.
[[nodiscard]] Compression parse_compression(std::string_view text);

}  // namespace psfsim

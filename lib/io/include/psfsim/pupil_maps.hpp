#pragma once
// Pupil maps from files (docs/spec.md §7): --pupil-amplitude and --pupil-opd read from an HDF5
// dataset, a NumPy .npy array or a FITS primary HDU, told apart by their first bytes; a bool,
// integer or float map is widened to double.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "psfsim/aperture_spec.hpp"

namespace psfsim {

// A 2-D map, or a 3-D stack of one map per frame, row-major: [frame][row = y][column = x].
struct PupilMap {
  std::string file;        // the file, for messages
  std::string dataset;     // HDF5: the dataset read
  bool stacked = false;    // a 3-D array: one map per frame of the batch
  std::size_t frames = 1;  // the first dimension of a stack, else 1
  std::size_t rows = 0;
  std::size_t columns = 0;
  std::vector<double> values;  // empty when only the header was read
};

// `text` is FILE or FILE:DATASET (the whole text when that names an existing file). The
// default dataset of an HDF5 file is its only dataset at the root. Every problem (no such
// file or dataset, an unknown format, a dtype other than bool, integer or float, a
// rank other than 2 or 3, a NaN or infinity) is an InputError naming `option` and the file.
[[nodiscard]] PupilMap read_pupil_map(std::string_view text, std::string_view option,
                                      bool header_only = false);

// Frames the maps of `aperture` define (the first dimension of a 3-D map; both maps' must
// agree), or 0 when neither map is a stack. Reads only the headers.
[[nodiscard]] std::size_t pupil_map_frames(const ApertureSpec& aperture);

}  // namespace psfsim

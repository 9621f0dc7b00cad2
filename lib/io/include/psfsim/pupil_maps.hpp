#pragma once
// Pupil maps from files (docs/spec.md §7): --pupil-amplitude and --pupil-opd read from an HDF5
// dataset, a NumPy .npy array or a FITS primary HDU, told apart by their first bytes; a bool,
// integer or float map is widened to double. The sampler takes them from the ApertureSpec
// (read_pupil_maps).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "psfsim/aperture_spec.hpp"
#include "psfsim/pupil_map.hpp"

namespace psfsim {

// `text` is FILE or FILE:DATASET (the whole text when that names an existing file). The
// default dataset of an HDF5 file is its only dataset at the root. Every problem (no such
// file or dataset, an unknown format, a dtype other than bool, integer or float, a
// rank other than 2 or 3, a NaN or infinity) is an InputError naming `option` and the file.
[[nodiscard]] PupilMap read_pupil_map(std::string_view text, std::string_view option,
                                      bool header_only = false);

// Reads the maps `aperture` names into its amplitude_map and opd_map, replacing any read
// before; InputErrors as read_pupil_map's.
void read_pupil_maps(ApertureSpec& aperture);

// Frames the maps of `aperture` define (the first dimension of a 3-D map; both maps' must
// agree), or 0 when neither map is a stack. Reads only the headers.
[[nodiscard]] std::size_t pupil_map_frames(const ApertureSpec& aperture);

}  // namespace psfsim

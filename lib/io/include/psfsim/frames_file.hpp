#pragma once
// --frames FILE: the CSV table of one row per frame, read from its file (the table's syntax is
// parse_frames_csv's, aberration_sources.hpp).
#include <filesystem>
#include <vector>

#include "psfsim/aberration_sources.hpp"

namespace psfsim {

// Throws InputError naming the file when it cannot be read, and as parse_frames_csv does.
[[nodiscard]] std::vector<Aberration> read_frames_csv(const Aberration& fixed,
                                                      const std::filesystem::path& path,
                                                      const ZernikeConvention& convention = {});

}  // namespace psfsim

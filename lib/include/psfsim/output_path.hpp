#pragma once
#include <filesystem>

namespace psfsim {

// Throws InputError when `path` exists and !force, or its folder is missing or unwritable
// (tried for real, so read-only mounts are caught before any computing).
void check_output_path(const std::filesystem::path& path, bool force);

}  // namespace psfsim

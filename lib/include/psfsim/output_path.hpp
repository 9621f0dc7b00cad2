#pragma once
// Where an output file may go, and the name it is built under until it is complete.
#include <filesystem>

namespace psfsim {

// Throws InputError when `path` exists and !force, or its folder is missing or unwritable
// (tried for real, so read-only mounts are caught before any computing).
void check_output_path(const std::filesystem::path& path, bool force);

// The partial file a run builds in the target's folder (so the final rename is atomic):
// .NAME.partial-PID.
[[nodiscard]] std::filesystem::path partial_name(const std::filesystem::path& target);

}  // namespace psfsim

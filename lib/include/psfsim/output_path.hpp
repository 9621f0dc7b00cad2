#pragma once
// Where an output file may go, and the name it is built under until it is complete.
#include <filesystem>
#include <string_view>

namespace psfsim {

// Throws InputError when `path` is no file name, exists and !force, or its folder is missing;
// RuntimeFailure with the system's reason when no file can be created in the folder (tried
// for real, so read-only mounts are caught before any computing). Then removes the stale
// partial files of that folder (remove_stale_partials). `option` names the path in the
// messages (`psfsim export` takes its output as --fits).
void check_output_path(const std::filesystem::path& path, bool force,
                       std::string_view option = "--output");

// The partial file a run builds in the target's folder (so the final rename is atomic):
// .NAME.partial-HOST-PID.
[[nodiscard]] std::filesystem::path partial_name(const std::filesystem::path& target);

// Removes the partial files in the folder of `target` that processes of this host left
// behind and that no longer exist (killed by SIGKILL, say). A live process's partial file,
// or another host's on a shared file system, is never touched.
void remove_stale_partials(const std::filesystem::path& target);

}  // namespace psfsim

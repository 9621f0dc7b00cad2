#pragma once
// Where an output file may go, the name it is built under until it is complete, and the
// removal of the partial files that dead processes left (docs/cli.md, "Output files").
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace psfsim {

// A file the command reads, which its output must not replace: `option` names it in the
// message ("--pupil-opd", "--config", "input").
struct InputFile {
  std::string option;
  std::filesystem::path path;
};

// Throws InputError, naming `named_by` and the path, when `path` is no file name (empty,
// a folder or a symbolic link to one, a name longer than the file system allows), is one of
// `inputs` (same device and inode, through a symbolic link too), or exists and is not to be
// replaced: only a regular file is ever replaced, and only with `force` (never a symbolic
// link, a FIFO, a device or a socket). Throws RuntimeFailure with
// the system's reason when no file can be created in the folder (tried for real, so
// read-only mounts are caught before any computing). Then removes the stale partial files
// of that folder (remove_stale_partials). `named_by` is the option that names the path:
// --fits for export; empty for --output.
void check_output_path(const std::filesystem::path& path, bool force,
                       std::string_view named_by = {}, std::span<const InputFile> inputs = {});

// HOST-PID of this process: what marks its partial files as its own.
[[nodiscard]] std::string process_tag();

// The name of the partial file of `name` (a file name, no folder) for the process `tag`
// (HOST-PID; empty: this process): .NAME.partial-HOST-PID. Where that would pass the 255
// bytes of a file name, NAME is cut and ends in ~ and a hash of the whole of it, so that
// the name still fits, differs for every NAME and ends in .partial-HOST-PID.
[[nodiscard]] std::string partial_file_name(std::string_view name, std::string_view tag = {});

// Removes the partial files in the folder of `target` that processes of this host left
// behind and that no longer exist (killed by SIGKILL, say). A live process's partial file,
// or another host's on a shared file system, is never touched.
void remove_stale_partials(const std::filesystem::path& target);

}  // namespace psfsim

#pragma once
// A backend built as a shared library that psfsim opens at run time instead of linking it
// (the CUDA backend with -DPSFSIM_CUDA_PLUGIN=ON), so that the program itself needs none of
// the backend's libraries: the one function such a plugin exports, and the loader that opens
// it and turns every way of failing into a one-line reason (docs/install.md).
#include <string>
#include <vector>

#include "psfsim/backend.hpp"
#include "psfsim/backend_registry.hpp"
#include "psfsim/build_config.hpp"

namespace psfsim::plugin {

// Raised whenever the contract changes in a way the sizes below do not show: the entry
// function, the handshake, or what a field of BackendEntry or Backend means.
// 2: Backend::submit_into; 3: lend_block and FrameBlock::finite; 4: PsfPlan::untimed;
// 5: Backend::prepare_next; 6: Backend::host_frame_memory.
inline constexpr int abi_version = 6;

// What one side (the program, or the plugin) was compiled with. Both sides read the other's
// before they trust anything else it holds, so this struct never changes: a new field goes
// into abi_version's meaning instead.
struct Handshake {
  int abi = 0;
  unsigned long long layout = 0;  // layout_fingerprint()
  const char* version = nullptr;  // PSFSIM_VERSION
};

// The sizes of the types that cross between the program and a plugin, mixed into one number:
// a plugin compiled from other headers (left over from an older build) almost surely
// differs here even where nobody raised abi_version.
[[nodiscard]] constexpr unsigned long long layout_fingerprint() {
  unsigned long long h = 1469598103934665603ull;
  for (const unsigned long long size :
       {sizeof(BackendEntry), sizeof(PsfPlan), sizeof(FrameBlock), sizeof(StageTimes),
        sizeof(AberrationPolynomial), sizeof(PropagationWork), sizeof(PropagationCosts),
        sizeof(Backend), sizeof(std::string), sizeof(std::vector<double>)})
    h = (h ^ size) * 1099511628211ull;
  return h;
}

[[nodiscard]] inline Handshake this_side() {
  return {abi_version, layout_fingerprint(), PSFSIM_VERSION};
}

// The name of the function a plugin exports (its type is psfsim_backend_plugin_entry_t).
inline constexpr const char* entry_symbol = "psfsim_backend_plugin_entry";

// What the entry function returns.
enum EntryStatus : int {
  entry_filled = 0,       // *entry holds the plugin's backend
  handshake_differs = 1,  // *plugin says how; *entry untouched
  entry_failed = 2,       // the plugin could not make its entry
};

// What the program asks of one plugin, and what stands in for its backend when the plugin
// cannot be used.
struct Request {
  std::string file;     // "libpsfsim-cuda.so", looked for in each folder
  std::string package;  // the Debian package that installs it, named when it is missing
  std::string backend;  // the name its entry must have ("cuda")
  std::string summary;  // the --help line while it is not loaded
  ComputeSite site = ComputeSite::host;
  // Where the libraries the plugin needs are looked for, said when one is missing.
  std::string libraries_hint;
};

// The folders to look in, in order: each of PSFSIM_PLUGIN_PATH (folders separated by ':'),
// then `build_folder` when the code asking runs from `build_tree` (a program or module of
// this build, not an installed copy), then `installed_folder`. Empty ones are left out.
[[nodiscard]] std::vector<std::string> search_folders(const std::string& build_tree,
                                                      const std::string& build_folder,
                                                      const std::string& installed_folder);

// The entry of the plugin in the first of `folders` that holds request.file, loaded once
// here and never unloaded. Where there is none, or it cannot be used (its libraries missing,
// not a psfsim plugin, another psfsim's), an entry of request.backend that is not compiled
// in and whose unusable_reason, create and describe say why in one line.
[[nodiscard]] BackendEntry load(const Request& request, const std::vector<std::string>& folders);

}  // namespace psfsim::plugin

extern "C" {
// The function a plugin exports, as entry_symbol: fills *plugin with its own handshake, and
// *entry with its backend's entry only where `host` equals that handshake. Never throws.
using psfsim_backend_plugin_entry_t = int (*)(const psfsim::plugin::Handshake* host,
                                              psfsim::plugin::Handshake* plugin,
                                              psfsim::BackendEntry* entry);
}

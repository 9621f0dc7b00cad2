// The one function libpsfsim-cuda.so exports: the CUDA backend's entry, handed to the psfsim
// that opened the plugin once both sides agree that they were built from the same psfsim
// (backends/include/psfsim/backend_plugin.hpp).
#include <string>
#include <type_traits>

#include "psfsim/backend_plugin.hpp"
#include "psfsim/cuda/cuda_backend.hpp"

extern "C" __attribute__((visibility("default"))) int psfsim_backend_plugin_entry(
    const psfsim::plugin::Handshake* host, psfsim::plugin::Handshake* plugin,
    psfsim::BackendEntry* entry) {
  try {
    const psfsim::plugin::Handshake mine = psfsim::plugin::this_side();
    if (plugin != nullptr) *plugin = mine;
    // The versions are compared as text: the program's string and this one are two copies.
    if (host == nullptr || entry == nullptr || host->abi != mine.abi ||
        host->layout != mine.layout || host->version == nullptr ||
        std::string(host->version) != mine.version)
      return psfsim::plugin::handshake_differs;
    *entry = psfsim::cuda::backend_entry();
    return psfsim::plugin::entry_filled;
  } catch (...) {  // nothing may leave a C function
    return psfsim::plugin::entry_failed;
  }
}

static_assert(std::is_same_v<decltype(&psfsim_backend_plugin_entry), psfsim_backend_plugin_entry_t>,
              "the entry has the type the loader calls it with");

// Stand-ins for a backend plugin, one module per way a plugin can be found wanting (or not),
// for backend_plugin_test.cpp. FAKE_PLUGIN picks which:
//   1 usable: a backend "cuda" whose create() throws, from inside the plugin, the errors
//     the program must catch as its own
//   2 stale: built by another psfsim (its handshake's ABI is one higher)
//   3 other backend: its entry is not named "cuda"
//   4 needs a library that is not there (linked to one left out of the loader's paths)
//   5 no entry function at all
#include <memory>
#include <string>
#include <vector>

#include "psfsim/backend_plugin.hpp"
#include "psfsim/errors.hpp"

#if FAKE_PLUGIN == 4
extern "C" int psfsim_test_absent_library_function();
#endif

#if FAKE_PLUGIN != 5
extern "C" __attribute__((visibility("default"))) int psfsim_backend_plugin_entry(
    const psfsim::plugin::Handshake* host, psfsim::plugin::Handshake* plugin,
    psfsim::BackendEntry* entry) {
  psfsim::plugin::Handshake mine = psfsim::plugin::this_side();
#if FAKE_PLUGIN == 2
  mine.abi += 1;
  mine.version = "99.0.0";
#endif
  *plugin = mine;
  if (host->abi != mine.abi || host->layout != mine.layout)
    return psfsim::plugin::handshake_differs;
  psfsim::BackendEntry e;
#if FAKE_PLUGIN == 3
  e.name = "other";
#else
  e.name = "cuda";
#endif
  e.summary = "a fake backend";
  e.site = psfsim::ComputeSite::device;
#if FAKE_PLUGIN == 4
  e.unusable_reason = [] { return std::to_string(psfsim_test_absent_library_function()); };
#else
  e.unusable_reason = [] { return std::string(); };
#endif
  e.create = [](const psfsim::PsfPlan& plan) -> std::unique_ptr<psfsim::Backend> {
    if (plan.max_batch > 1) throw psfsim::InputError("fake: max_batch above 1");
    throw psfsim::RuntimeFailure("fake: no device");
  };
  e.describe = [] { return std::vector<std::string>{"fake backend line"}; };
  e.device_count = [] { return 3; };
  *entry = e;
  return psfsim::plugin::entry_filled;
}
#else
extern "C" __attribute__((visibility("default"))) int psfsim_test_not_an_entry() { return 0; }
#endif

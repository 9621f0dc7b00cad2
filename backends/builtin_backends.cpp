#include "psfsim/builtin_backends.hpp"

#include "psfsim/build_config.hpp"
#include "psfsim/cpu/cpu_backend.hpp"
#if defined(PSFSIM_CUDA_PLUGIN)
#include "psfsim/backend_plugin.hpp"
#elif PSFSIM_HAVE_CUDA_BACKEND
#include "psfsim/cuda/cuda_backend.hpp"
#else
#include "psfsim/errors.hpp"
#endif

namespace psfsim {
namespace {

#if defined(PSFSIM_CUDA_PLUGIN)
// -DPSFSIM_CUDA_PLUGIN=ON: the CUDA backend is libpsfsim-cuda.so (cuda/CMakeLists.txt), opened
// here, so that this program links none of NVIDIA's libraries and runs where they are absent.
// Where the plugin or its libraries are missing, the entry says so and "auto" takes the CPU.
BackendEntry cuda_plugin() {
  plugin::Request request;
  request.file = PSFSIM_CUDA_PLUGIN_FILE;
  request.package = "psfsim-cuda";
  request.backend = "cuda";
  request.summary = "cuFFT (or cuBLAS for the MFT) on an NVIDIA GPU (--device)";
  request.site = ComputeSite::device;
  request.libraries_hint =
      "NVIDIA's CUDA libraries, looked for in /usr/local/cuda/lib64 and the loader's paths";
  return plugin::load(request,
                      plugin::search_folders(PSFSIM_BUILD_TREE, PSFSIM_CUDA_PLUGIN_BUILD_DIR,
                                             PSFSIM_CUDA_PLUGIN_INSTALL_DIR));
}
#elif !PSFSIM_HAVE_CUDA_BACKEND
// A build without CUDA still knows the name, so that `--backend cuda` says why it cannot
// run (exit 3, as for a machine without a device) instead of calling the name unknown.
BackendEntry cuda_not_compiled() {
  const std::string why = "not compiled into this psfsim (built without a CUDA toolkit)";
  BackendEntry e;
  e.name = "cuda";
  e.summary = "cuFFT on an NVIDIA GPU (not in this build)";
  e.compiled = false;
  e.site = ComputeSite::device;
  e.unusable_reason = [why] { return why; };
  e.create = [why](const PsfPlan&) -> std::unique_ptr<Backend> {
    throw RuntimeFailure("cuda backend: " + why);
  };
  e.describe = [why] { return std::vector<std::string>{"CUDA backend " + why}; };
  return e;
}
#endif

}  // namespace

const BackendRegistry& builtin_backends() {
  // Made on first use, once: a plugin is opened here, not when the program starts.
  static const BackendRegistry registry = [] {
    BackendRegistry r;
#if defined(PSFSIM_CUDA_PLUGIN)
    r.add(cuda_plugin());  // first: "auto" prefers a usable GPU
#elif PSFSIM_HAVE_CUDA_BACKEND
    r.add(cuda::backend_entry());  // first: "auto" prefers a usable GPU
#else
    r.add(cuda_not_compiled());
#endif
    r.add(cpu::backend_entry());
    return r;
  }();
  return registry;
}

}  // namespace psfsim

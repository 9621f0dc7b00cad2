#include "psfsim/builtin_backends.hpp"

#include "psfsim/build_config.hpp"
#include "psfsim/cpu/cpu_backend.hpp"
#if PSFSIM_HAVE_CUDA_BACKEND
#include "psfsim/cuda/cuda_backend.hpp"
#else
#include "psfsim/errors.hpp"
#endif

namespace psfsim {
namespace {

#if !PSFSIM_HAVE_CUDA_BACKEND
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
  static const BackendRegistry registry = [] {
    BackendRegistry r;
#if PSFSIM_HAVE_CUDA_BACKEND
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

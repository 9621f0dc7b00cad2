#include "cufft_backend.hpp"
#include "device_info.hpp"
#include "psfsim/cuda/cufft_backend.hpp"

namespace psfsim::cuda {

BackendEntry backend_entry() {
  BackendEntry entry;
  entry.name = "cuda";
  entry.summary = "cuFFT on an NVIDIA GPU (--device)";
  entry.unusable_reason = [] { return unusable_reason(); };
  entry.create = [](const PsfPlan& plan) { return make_cufft_backend(plan); };
  entry.describe = [] { return describe_installation(); };
  return entry;
}

}  // namespace psfsim::cuda

#include <cuda_runtime_api.h>

#include "cufft_backend.hpp"
#include "device_info.hpp"
#include "mft_backend.hpp"
#include "psfsim/cuda/cuda_backend.hpp"
#include "psfsim/cuda/propagation_costs.hpp"
#include "psfsim/cuda/tuning.hpp"

namespace psfsim::cuda {

BackendEntry backend_entry() {
  BackendEntry entry;
  entry.name = "cuda";
  entry.summary = "cuFFT (or cuBLAS for the MFT) on an NVIDIA GPU (--device)";
  entry.unusable_reason = [] { return unusable_reason(); };
  entry.create = [](const PsfPlan& plan) {
    return plan.propagation == Propagation::mft ? make_mft_backend(plan) : make_cufft_backend(plan);
  };
  entry.describe = [] { return describe_installation(); };
  entry.site = ComputeSite::device;
  entry.propagation_costs = [](const PropagationWork& work) { return propagation_costs(work); };
  entry.start_up_seconds = tuning::start_up_seconds;
  entry.run_seconds = [](const RunWork& work) { return run_seconds(work); };
  entry.prepare = [](int device) {
    if (cudaSetDevice(device) == cudaSuccess) (void)cudaFree(nullptr);  // makes the context
    (void)cudaGetLastError();
  };
  entry.device_count = [] {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    return count;
  };
  return entry;
}

}  // namespace psfsim::cuda

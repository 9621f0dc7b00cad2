#include <cuda_runtime_api.h>

#include "cufft_backend.hpp"
#include "device_info.hpp"
#include "mft_backend.hpp"
#include "psfsim/cuda/cuda_backend.hpp"

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

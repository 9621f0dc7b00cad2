#include "frame_memory.hpp"

#include <cuda_runtime_api.h>

#include <mutex>
#include <vector>

#include "cuda_check.hpp"
#include "device_info.hpp"

namespace psfsim::cuda {
namespace {

// One pool per device, made on first use and kept for the process (frames may outlive every
// backend). Its release threshold keeps freed memory for the next call.
cudaMemPool_t frame_pool(int device) {
  static std::mutex mutex;
  static std::vector<cudaMemPool_t> pools;
  const std::lock_guard lock(mutex);
  if (pools.size() <= static_cast<std::size_t>(device)) pools.resize(device + 1, nullptr);
  cudaMemPool_t& pool = pools[static_cast<std::size_t>(device)];
  if (pool == nullptr) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.handleTypes = cudaMemHandleTypeNone;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    PSFSIM_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
    std::uint64_t keep = UINT64_MAX;
    PSFSIM_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  }
  return pool;
}

}  // namespace

std::shared_ptr<void> pooled_frame_memory(int device, std::size_t bytes) {
  const CurrentDeviceKept kept;
  PSFSIM_CUDA_CHECK(cudaSetDevice(device));
  void* p = nullptr;
  PSFSIM_CUDA_CHECK(
      cudaMallocFromPoolAsync(&p, std::max<std::size_t>(bytes, 1), frame_pool(device),
                              cudaStreamPerThread));
  // Ready for any stream once the allocation is ordered: frames are written on other streams.
  PSFSIM_CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
  return {p, [device](void* q) {
            // At exit or after a device error there is nothing better to do than leave it.
            const CurrentDeviceKept kept;
            if (cudaSetDevice(device) == cudaSuccess) (void)cudaFreeAsync(q, cudaStreamLegacy);
            (void)cudaGetLastError();
          }};
}

void copy_memory(void* to, const void* from, std::size_t bytes) {
  if (bytes == 0) return;
  PSFSIM_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, cudaStreamPerThread));
  PSFSIM_CUDA_CHECK(cudaStreamSynchronize(cudaStreamPerThread));
}

void wait_for_caller_stream(std::uintptr_t stream) {
  const cudaStream_t s = stream <= 1   ? cudaStreamLegacy
                         : stream == 2 ? cudaStreamPerThread
                                       : reinterpret_cast<cudaStream_t>(stream);
  PSFSIM_CUDA_CHECK(cudaStreamSynchronize(s));
}

}  // namespace psfsim::cuda

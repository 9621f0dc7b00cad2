#include "frame_memory.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "cuda_check.hpp"
#include "device_info.hpp"

namespace psfsim::cuda {
namespace {

// One pool and one copy stream per device, made on first use and kept for the process (frames
// may outlive every backend). The pool's release threshold keeps freed memory for the next
// call. The device must be current.
struct DeviceResources {
  cudaMemPool_t pool = nullptr;
  cudaStream_t stream = nullptr;
};

DeviceResources& resources(int device) {
  static std::mutex mutex;
  static std::vector<DeviceResources> all;
  const std::lock_guard lock(mutex);
  if (all.size() <= static_cast<std::size_t>(device)) all.resize(device + 1);
  DeviceResources& r = all[static_cast<std::size_t>(device)];
  if (r.stream == nullptr)
    PSFSIM_CUDA_CHECK(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
  cudaMemPool_t& pool = r.pool;
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
  return r;
}

}  // namespace

std::shared_ptr<void> pooled_frame_memory(int device, std::size_t bytes, cudaStream_t stream) {
  const CurrentDeviceKept kept;
  PSFSIM_CUDA_CHECK(cudaSetDevice(device));
  void* p = nullptr;
  const DeviceResources& r = resources(device);
  PSFSIM_CUDA_CHECK(cudaMallocFromPoolAsync(&p, std::max<std::size_t>(bytes, 1), r.pool, stream));
  // No wait: the frames' copy into it comes later on the same stream, and a consumer reads it
  // only after that copy's wait.
  return {p, [device](void* q) {
            // At exit or after a device error there is nothing better to do than leave it.
            const CurrentDeviceKept kept;
            if (cudaSetDevice(device) == cudaSuccess) (void)cudaFreeAsync(q, cudaStreamLegacy);
            (void)cudaGetLastError();
          }};
}

std::shared_ptr<void> pinned_frame_memory(std::size_t bytes) {
  static std::atomic<std::size_t> pinned{0};
  static const std::size_t most = [] {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * page / 4 : std::size_t{0};
  }();
  bytes = std::max<std::size_t>(bytes, 1);
  if (pinned.fetch_add(bytes) + bytes > most) {
    pinned.fetch_sub(bytes);
    return nullptr;
  }
  void* p = nullptr;
  // Portable: a copy from any device of the process may fill it.
  if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
    (void)cudaGetLastError();
    pinned.fetch_sub(bytes);
    return nullptr;
  }
  return {p, [bytes](void* q) {
            // At exit the driver may be gone already: nothing better to do than leave it.
            (void)cudaFreeHost(q);
            (void)cudaGetLastError();
            pinned.fetch_sub(bytes);
          }};
}

void copy_memory(void* to, const void* from, std::size_t bytes, int device) {
  if (bytes == 0) return;
  const CurrentDeviceKept kept;
  PSFSIM_CUDA_CHECK(cudaSetDevice(device));
  const cudaStream_t stream = resources(device).stream;
  PSFSIM_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, stream));
  PSFSIM_CUDA_CHECK(cudaStreamSynchronize(stream));
}

int device_of(const void* address) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, address) != cudaSuccess) {
    (void)cudaGetLastError();  // not an address CUDA knows: host memory
    return -1;
  }
  const bool on_device =
      attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
  return on_device ? attributes.device : -1;
}

void wait_for_caller_stream(std::uintptr_t stream) {
  const cudaStream_t s = stream <= 1   ? cudaStreamLegacy
                         : stream == 2 ? cudaStreamPerThread
                                       : reinterpret_cast<cudaStream_t>(stream);
  PSFSIM_CUDA_CHECK(cudaStreamSynchronize(s));
}

}  // namespace psfsim::cuda

#pragma once
// Owning handles for device memory and pinned host memory: non-copyable, movable, freed in
// noexcept destructors (a failure to free at shutdown is not worth a crash).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "cuda_check.hpp"

namespace psfsim::cuda {

// One owning buffer; `Memory` says where it lives (allocate and release).
template <typename T, typename Memory>
class CudaBuffer {
 public:
  CudaBuffer() = default;
  explicit CudaBuffer(std::size_t count) : count_(count) {
    if (count > 0) Memory::allocate(reinterpret_cast<void**>(&data_), bytes());
  }
  CudaBuffer(CudaBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  CudaBuffer& operator=(CudaBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;
  ~CudaBuffer() {
    if (data_ != nullptr) Memory::release(data_);
  }

  [[nodiscard]] T* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] std::size_t bytes() const noexcept { return count_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

struct DeviceMemory {
  static void allocate(void** p, std::size_t bytes) { PSFSIM_CUDA_CHECK(cudaMalloc(p, bytes)); }
  static void release(void* p) noexcept { cudaFree(p); }
};

// Page-locked host memory: the only kind a device-to-host copy runs at full speed into,
// and the only kind a captured graph may copy from or into.
struct PinnedHostMemory {
  static void allocate(void** p, std::size_t bytes) { PSFSIM_CUDA_CHECK(cudaMallocHost(p, bytes)); }
  static void release(void* p) noexcept { cudaFreeHost(p); }
};

template <typename T>
using DeviceBuffer = CudaBuffer<T, DeviceMemory>;
template <typename T>
using PinnedBuffer = CudaBuffer<T, PinnedHostMemory>;

// The address kernels use to read or write pinned host memory directly over the bus (the
// host address itself under unified addressing, asked for rather than assumed).
template <typename T>
T* device_view(const PinnedBuffer<T>& host) {
  if (host.data() == nullptr) return nullptr;
  void* view = nullptr;
  PSFSIM_CUDA_CHECK(cudaHostGetDevicePointer(&view, host.data(), 0));
  return static_cast<T*>(view);
}

}  // namespace psfsim::cuda

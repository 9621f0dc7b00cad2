#pragma once
// Owning handles for a stream and a timing event.
#include <cuda_runtime_api.h>

#include <utility>

#include "cuda_check.hpp"

namespace psfsim::cuda {

class Stream {
 public:
  // Non-blocking: the backend's work never waits on, or is waited on by, the legacy stream.
  Stream() { PSFSIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() {
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }
  [[nodiscard]] cudaStream_t get() const noexcept { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  explicit Event(unsigned flags = cudaEventDefault) {  // the default keeps timing enabled
    PSFSIM_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags));
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() {
    if (event_ != nullptr) cudaEventDestroy(event_);
  }
  [[nodiscard]] cudaEvent_t get() const noexcept { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// Seconds between two events that have completed.
inline double elapsed_seconds(const Event& from, const Event& to) {
  float ms = 0.0f;
  PSFSIM_CUDA_CHECK(cudaEventElapsedTime(&ms, from.get(), to.get()));
  return 1e-3 * static_cast<double>(ms);
}

}  // namespace psfsim::cuda

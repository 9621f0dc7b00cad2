#pragma once
// Memory for frames a caller keeps on the GPU (Backend::frame_memory, the Python module's
// result="device"), and the copies between it and the host (Backend::memory_copy).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace psfsim::cuda {

// `bytes` of device memory of `device`, from a memory pool of psfsim's own that keeps what it
// was given (a call's allocation then costs no cudaMalloc), ordered on `stream`, the one its
// first writes are queued on; freed in the order of the legacy default stream's work, after
// whatever a consumer queued there.
[[nodiscard]] std::shared_ptr<void> pooled_frame_memory(int device, std::size_t bytes,
                                                        cudaStream_t stream);

// `bytes` of pinned host memory for frames a caller keeps on the host (Backend::
// host_frame_memory), which a call's copy from the device fills directly; freed with its last
// holder. Null where pinning it would take the process's pinned memory past a quarter of the
// machine's (pinned pages cannot be swapped or reclaimed), or the driver has none to give:
// the caller then uses plain memory.
[[nodiscard]] std::shared_ptr<void> pinned_frame_memory(std::size_t bytes);

// Any direction between host memory and `device`'s, complete on return, on psfsim's copy
// stream of the device: a non-blocking stream, which waits for no consumer's work (out=
// waits for the consumer's stream first: wait_for_caller_stream).
void copy_memory(void* to, const void* from, std::size_t bytes, int device);

// The device whose memory `address` is in (device or managed memory), else -1.
[[nodiscard]] int device_of(const void* address);

// Blocks until the work queued so far on the caller's `stream` (0 or 1: the legacy default
// stream, 2: the per-thread default stream) is done.
void wait_for_caller_stream(std::uintptr_t stream);

}  // namespace psfsim::cuda

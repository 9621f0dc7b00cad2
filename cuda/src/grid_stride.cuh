#pragma once
// Element-wise kernels' launches: a grid of at most a few blocks per SM over `total` values,
// each thread striding over the rest.
#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

namespace psfsim::cuda::grid_stride {

inline constexpr int block_threads = 256;
// Enough blocks to fill an H200 several times over; each thread then strides.
inline constexpr long long max_blocks = 132LL * 16;

inline unsigned blocks_for(long long total) {
  const long long b = (total + block_threads - 1) / block_threads;
  return static_cast<unsigned>(b < max_blocks ? (b > 0 ? b : 1) : max_blocks);
}

// The first value of this thread, and the stride to its next.
__device__ inline long long first_index() {
  return static_cast<long long>(blockIdx.x) * block_threads + threadIdx.x;
}
__device__ inline long long stride() { return static_cast<long long>(gridDim.x) * block_threads; }

// One launch over `total` values, the kernel's last argument, checked.
template <typename... Params, typename... Args>
void launch_over(void (*kernel)(Params...), long long total, cudaStream_t stream, Args... args) {
  kernel<<<blocks_for(total), block_threads, 0, stream>>>(args..., total);
  PSFSIM_CUDA_CHECK(cudaGetLastError());
}

}  // namespace psfsim::cuda::grid_stride

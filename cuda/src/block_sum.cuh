#pragma once
// The sum over a thread block in a fixed order, so that reruns agree bit for bit: each warp's
// by shuffles, then the warps' in order. Shared by the metrics kernels.
namespace psfsim::cuda {

// Valid in every thread of a block of `Threads` threads; `scratch` holds Threads / 32 doubles
// of shared memory, which the call may reuse.
template <int Threads>
__device__ double block_sum(double v, double* scratch) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  __syncthreads();  // scratch may still be read by the previous call
  if (threadIdx.x % 32 == 0) scratch[threadIdx.x / 32] = v;
  __syncthreads();
  double total = 0.0;
  for (int w = 0; w < Threads / 32; ++w) total += scratch[w];
  return total;
}

}  // namespace psfsim::cuda

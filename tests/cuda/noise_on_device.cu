// photon_noise.hpp's noisy_pixel run by a CUDA kernel, for the test that the device draws the
// same noise as the host (the header is written for both).
#include <cuda_runtime_api.h>

#include "noise_on_device.hpp"
#include "psfsim/photon_noise.hpp"

namespace psfsim::test {
namespace {

__global__ void noise_kernel(const double* intensity, double* out, std::size_t pixels,
                             std::uint64_t frame, NoiseModel model) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < pixels) out[i] = noisy_pixel(intensity[i], frame, i, model);
}

}  // namespace

std::string noise_on_device(const std::vector<double>& intensity, std::uint64_t frame,
                            const NoiseModel& model, std::vector<double>& out) {
  const std::size_t bytes = intensity.size() * sizeof(double);
  double* in = nullptr;
  double* result = nullptr;
  cudaError_t e = cudaMalloc(&in, bytes);
  if (e == cudaSuccess) e = cudaMalloc(&result, bytes);
  if (e == cudaSuccess) e = cudaMemcpy(in, intensity.data(), bytes, cudaMemcpyHostToDevice);
  if (e == cudaSuccess) {
    const unsigned blocks = static_cast<unsigned>((intensity.size() + 255) / 256);
    noise_kernel<<<blocks, 256>>>(in, result, intensity.size(), frame, model);
    e = cudaGetLastError();
  }
  out.resize(intensity.size());
  if (e == cudaSuccess) e = cudaMemcpy(out.data(), result, bytes, cudaMemcpyDeviceToHost);
  cudaFree(in);
  cudaFree(result);
  return e == cudaSuccess ? std::string() : cudaGetErrorString(e);
}

}  // namespace psfsim::test

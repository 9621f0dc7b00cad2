#pragma once
// One check for every CUDA runtime, cuFFT and cuBLAS call: a failure becomes a RuntimeFailure
// that carries the call text and file:line, so that a device error reaches the user as one line.
#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <cufft.h>

namespace psfsim::cuda::detail {

[[noreturn]] void throw_failure(const char* call, const char* what, const char* file, int line);
[[nodiscard]] const char* cufft_result_name(cufftResult result) noexcept;
[[nodiscard]] const char* cublas_status_name(cublasStatus_t status) noexcept;

inline void check(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) throw_failure(call, cudaGetErrorString(status), file, line);
}

inline void check(cufftResult status, const char* call, const char* file, int line) {
  if (status != CUFFT_SUCCESS) throw_failure(call, cufft_result_name(status), file, line);
}

inline void check(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) throw_failure(call, cublas_status_name(status), file, line);
}

}  // namespace psfsim::cuda::detail

#define PSFSIM_CUDA_CHECK(call) ::psfsim::cuda::detail::check((call), #call, __FILE__, __LINE__)
// After every kernel launch: a bad configuration is reported here, not at the next sync.
#define PSFSIM_CUDA_CHECK_LAUNCH() PSFSIM_CUDA_CHECK(cudaGetLastError())

#pragma once
// cuBLAS, opened on first use. Linked like cuFFT, its cuBLASLt would run its static
// initialization in every psfsim process, most of a small run's wall time
// (bench/results/code-constants.md), though only the MFT on the GPU multiplies matrices.
#include <cublas_v2.h>

namespace psfsim::cuda {

struct CublasLibrary {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasSetWorkspace_v2) set_workspace = nullptr;
  decltype(&cublasCgemmStridedBatched) cgemm_strided_batched = nullptr;
  decltype(&cublasCgemm3mStridedBatched) cgemm3m_strided_batched = nullptr;
  decltype(&cublasZgemmStridedBatched) zgemm_strided_batched = nullptr;
  decltype(&cublasSgemmStridedBatched) sgemm_strided_batched = nullptr;
  decltype(&cublasDgemmStridedBatched) dgemm_strided_batched = nullptr;
  decltype(&cublasGetStatusName) status_name = nullptr;
};

// Opens libcublas.so.<major> (beside cuFFT's library when the loader's paths do not find it)
// once; throws RuntimeFailure naming the library when it cannot.
[[nodiscard]] const CublasLibrary& cublas();

// The library's name for a status, or null when it was never opened.
[[nodiscard]] const char* cublas_status_name_if_open(cublasStatus_t status) noexcept;

}  // namespace psfsim::cuda

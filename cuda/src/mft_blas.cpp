#include "mft_blas.hpp"

#include <cublas_v2.h>

#include "cuda_check.hpp"

namespace psfsim::cuda {
namespace {

cublasOperation_t operation(bool transposed) { return transposed ? CUBLAS_OP_T : CUBLAS_OP_N; }

}  // namespace

BlasHandle::BlasHandle(cudaStream_t stream) : workspace_(workspace_bytes) {
  PSFSIM_CUDA_CHECK(cublasCreate(&handle_));
  try {
    // In this order: setting the stream resets the workspace to cuBLAS's own pool.
    PSFSIM_CUDA_CHECK(cublasSetStream(handle_, stream));
    PSFSIM_CUDA_CHECK(cublasSetWorkspace(handle_, workspace_.data(), workspace_.bytes()));
  } catch (...) {
    cublasDestroy(handle_);
    throw;
  }
}

BlasHandle::~BlasHandle() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

template <>
void gemm_strided_batched<float>(const BlasHandle& blas, int m, int n, int k,
                                 const GemmOperand<float>& a, const GemmOperand<float>& b,
                                 float2* c, int ldc, long long stride_c, int batch,
                                 ComplexProduct product) {
  const cuComplex one{1.0f, 0.0f};
  const cuComplex zero{0.0f, 0.0f};
  const auto gemm = product == ComplexProduct::gauss ? &cublasCgemm3mStridedBatched
                                                     : &cublasCgemmStridedBatched;
  PSFSIM_CUDA_CHECK(gemm(blas.get(), operation(a.transposed), operation(b.transposed), m, n, k,
                         &one, a.data, a.ld, a.stride, b.data, b.ld, b.stride, &zero, c, ldc,
                         stride_c, batch));
}

template <>
void gemm_strided_batched<double>(const BlasHandle& blas, int m, int n, int k,
                                  const GemmOperand<double>& a, const GemmOperand<double>& b,
                                  double2* c, int ldc, long long stride_c, int batch,
                                  ComplexProduct /*product*/) {
  const cuDoubleComplex one{1.0, 0.0};
  const cuDoubleComplex zero{0.0, 0.0};
  PSFSIM_CUDA_CHECK(cublasZgemmStridedBatched(blas.get(), operation(a.transposed),
                                              operation(b.transposed), m, n, k, &one, a.data,
                                              a.ld, a.stride, b.data, b.ld, b.stride, &zero, c,
                                              ldc, stride_c, batch));
}

}  // namespace psfsim::cuda

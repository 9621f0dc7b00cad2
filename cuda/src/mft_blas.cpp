#include "mft_blas.hpp"

#include <cublas_v2.h>

#include "cublas_library.hpp"
#include "cuda_check.hpp"

namespace psfsim::cuda {
namespace {

cublasOperation_t operation(bool transposed) { return transposed ? CUBLAS_OP_T : CUBLAS_OP_N; }

}  // namespace

BlasHandle::BlasHandle(cudaStream_t stream) : workspace_(workspace_bytes) {
  const CublasLibrary& api = cublas();
  PSFSIM_CUDA_CHECK(api.create(&handle_));
  try {
    // In this order: setting the stream resets the workspace to cuBLAS's own pool.
    PSFSIM_CUDA_CHECK(api.set_stream(handle_, stream));
    PSFSIM_CUDA_CHECK(api.set_workspace(handle_, workspace_.data(), workspace_.bytes()));
  } catch (...) {
    api.destroy(handle_);
    throw;
  }
}

BlasHandle::~BlasHandle() {
  if (handle_ != nullptr) cublas().destroy(handle_);
}

template <>
void gemm_strided_batched<float>(const BlasHandle& blas, int m, int n, int k,
                                 const GemmOperand<float>& a, const GemmOperand<float>& b,
                                 float2* c, int ldc, long long stride_c, int batch,
                                 ComplexProduct product, bool accumulate) {
  const cuComplex one{1.0f, 0.0f};
  const cuComplex beta{accumulate ? 1.0f : 0.0f, 0.0f};
  const auto gemm = product == ComplexProduct::gauss ? cublas().cgemm3m_strided_batched
                                                     : cublas().cgemm_strided_batched;
  PSFSIM_CUDA_CHECK(gemm(blas.get(), operation(a.transposed), operation(b.transposed), m, n, k,
                         &one, a.data, a.ld, a.stride, b.data, b.ld, b.stride, &beta, c, ldc,
                         stride_c, batch));
}

template <>
void gemm_strided_batched<double>(const BlasHandle& blas, int m, int n, int k,
                                  const GemmOperand<double>& a, const GemmOperand<double>& b,
                                  double2* c, int ldc, long long stride_c, int batch,
                                  ComplexProduct /*product*/, bool accumulate) {
  const cuDoubleComplex one{1.0, 0.0};
  const cuDoubleComplex beta{accumulate ? 1.0 : 0.0, 0.0};
  PSFSIM_CUDA_CHECK(cublas().zgemm_strided_batched(
      blas.get(), operation(a.transposed), operation(b.transposed), m, n, k, &one, a.data, a.ld,
      a.stride, b.data, b.ld, b.stride, &beta, c, ldc, stride_c, batch));
}

template <>
void real_gemm_strided_batched<float>(const BlasHandle& blas, int m, int n, int k,
                                      const RealOperand<float>& a, const RealOperand<float>& b,
                                      float* c, int ldc, long long stride_c, int batch,
                                      bool accumulate) {
  const float one = 1.0f;
  const float beta = accumulate ? 1.0f : 0.0f;
  PSFSIM_CUDA_CHECK(cublas().sgemm_strided_batched(
      blas.get(), operation(a.transposed), operation(b.transposed), m, n, k, &one, a.data, a.ld,
      a.stride, b.data, b.ld, b.stride, &beta, c, ldc, stride_c, batch));
}

template <>
void real_gemm_strided_batched<double>(const BlasHandle& blas, int m, int n, int k,
                                       const RealOperand<double>& a, const RealOperand<double>& b,
                                       double* c, int ldc, long long stride_c, int batch,
                                       bool accumulate) {
  const double one = 1.0;
  const double beta = accumulate ? 1.0 : 0.0;
  PSFSIM_CUDA_CHECK(cublas().dgemm_strided_batched(
      blas.get(), operation(a.transposed), operation(b.transposed), m, n, k, &one, a.data, a.ld,
      a.stride, b.data, b.ld, b.stride, &beta, c, ldc, stride_c, batch));
}

}  // namespace psfsim::cuda

#pragma once
// cuBLAS for the MFT: a handle bound to one stream with a workspace of its own, and the
// complex strided-batched product in either precision.
#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <cstddef>

#include "device_complex.hpp"
#include "device_memory.hpp"

namespace psfsim::cuda {

// A cuBLAS handle whose work goes to `stream`. Its workspace is allocated here, once: without
// it cuBLAS would allocate during graph capture, a new one for every graph recorded.
class BlasHandle {
 public:
  // cuBLAS's recommended workspace on Hopper.
  static constexpr std::size_t workspace_bytes = std::size_t{32} << 20;

  explicit BlasHandle(cudaStream_t stream);
  BlasHandle(const BlasHandle&) = delete;
  BlasHandle& operator=(const BlasHandle&) = delete;
  ~BlasHandle();

  [[nodiscard]] cublasHandle_t get() const noexcept { return handle_; }

 private:
  DeviceBuffer<unsigned char> workspace_;
  cublasHandle_t handle_ = nullptr;
};

// One operand of a strided-batched product: column-major with leading dimension `ld`,
// `stride` complex values from one batch entry's matrix to the next (0: one shared matrix),
// used transposed (not conjugated) when `transposed`.
template <typename Real>
struct GemmOperand {
  const DeviceComplex<Real>* data = nullptr;
  int ld = 0;
  long long stride = 0;
  bool transposed = false;
};

// How the single-precision product multiplies (double always uses zgemm).
enum class ComplexProduct {
  four_real,  // cgemm: 4 real products per complex one
  gauss,      // cgemm3m: 3 (Gauss), up to 25% faster where cuBLAS has kernels for it
};

// C_i = op(A_i) op(B_i) for i < batch (C_i += ... where `accumulate`); C_i is m x n
// column-major with leading dimension ldc, `stride_c` apart.
template <typename Real>
void gemm_strided_batched(const BlasHandle& blas, int m, int n, int k, const GemmOperand<Real>& a,
                          const GemmOperand<Real>& b, DeviceComplex<Real>* c, int ldc,
                          long long stride_c, int batch,
                          ComplexProduct product = ComplexProduct::four_real,
                          bool accumulate = false);

// A real operand, as GemmOperand: `stride` real values apart.
template <typename Real>
struct RealOperand {
  const Real* data = nullptr;
  int ld = 0;
  long long stride = 0;
  bool transposed = false;
};

// The real product C_i = op(A_i) op(B_i) (C_i += ... where `accumulate`): sgemm or dgemm,
// strided-batched.
template <typename Real>
void real_gemm_strided_batched(const BlasHandle& blas, int m, int n, int k,
                               const RealOperand<Real>& a, const RealOperand<Real>& b, Real* c,
                               int ldc, long long stride_c, int batch, bool accumulate = false);

}  // namespace psfsim::cuda

#include "fft_plan.hpp"

#include "cuda_check.hpp"

namespace psfsim::cuda {
namespace {

cufftType transform_type(Precision precision) {
  return precision == Precision::single ? CUFFT_C2C : CUFFT_Z2Z;
}

// A handle that is destroyed however its setup ends.
struct ScopedHandle {
  cufftHandle handle{};
  ScopedHandle() { PSFSIM_CUDA_CHECK(cufftCreate(&handle)); }
  ScopedHandle(const ScopedHandle&) = delete;
  ScopedHandle& operator=(const ScopedHandle&) = delete;
  ~ScopedHandle() { cufftDestroy(handle); }
};

}  // namespace

FftPlan::FftPlan(int padded, long long batch, Precision precision, cudaStream_t stream, int rank)
    : precision_(precision) {
  PSFSIM_CUDA_CHECK(cufftCreate(&handle_));
  try {
    // The 64-bit interface: batch * M * M can pass 2^31 elements for large batches.
    long long n[2] = {padded, padded};
    const long long dist = rank == 2 ? static_cast<long long>(padded) * padded : padded;
    std::size_t work = 0;
    PSFSIM_CUDA_CHECK(cufftMakePlanMany64(handle_, rank, n, nullptr, 1, dist, nullptr, 1, dist,
                                          transform_type(precision), batch, &work));
    PSFSIM_CUDA_CHECK(cufftSetStream(handle_, stream));
  } catch (...) {
    cufftDestroy(handle_);
    throw;
  }
}

FftPlan::~FftPlan() { cufftDestroy(handle_); }

void FftPlan::forward(const void* in, void* out) const {
  // cuFFT's signature takes a non-const input even where it only reads it.
  void* input = const_cast<void*>(in);
  if (precision_ == Precision::single)
    PSFSIM_CUDA_CHECK(cufftExecC2C(handle_, static_cast<cufftComplex*>(input),
                                   static_cast<cufftComplex*>(out), CUFFT_FORWARD));
  else
    PSFSIM_CUDA_CHECK(cufftExecZ2Z(handle_, static_cast<cufftDoubleComplex*>(input),
                                   static_cast<cufftDoubleComplex*>(out), CUFFT_FORWARD));
}

std::size_t FftPlan::work_bytes(int padded, long long batch, Precision precision, int rank) {
  ScopedHandle probe;
  long long n[2] = {padded, padded};
  const long long dist = rank == 2 ? static_cast<long long>(padded) * padded : padded;
  std::size_t work = 0;
  PSFSIM_CUDA_CHECK(cufftGetSizeMany64(probe.handle, rank, n, nullptr, 1, dist, nullptr, 1, dist,
                                       transform_type(precision), batch, &work));
  return work;
}

}  // namespace psfsim::cuda

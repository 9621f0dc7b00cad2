#include "fft_plan.hpp"

#include "cuda_check.hpp"

namespace psfsim::cuda {
namespace {

cufftType transform_type(Precision precision, FftInput input) {
  if (input == FftInput::real) return precision == Precision::single ? CUFFT_R2C : CUFFT_D2Z;
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

FftPlan::FftPlan(const FftShape& shape, Precision precision, cudaStream_t stream)
    : precision_(precision), input_(shape.input) {
  PSFSIM_CUDA_CHECK(cufftCreate(&handle_));
  try {
    // The 64-bit interface: batch * M * M can pass 2^31 elements for large batches. With no
    // embedding the layout is the basic contiguous one (strides and distances are not read).
    long long n[2] = {shape.padded, shape.padded};
    std::size_t work = 0;
    PSFSIM_CUDA_CHECK(cufftMakePlanMany64(handle_, shape.rank, n, nullptr, 1, 0, nullptr, 1, 0,
                                          transform_type(precision, shape.input), shape.batch,
                                          &work));
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
  if (input_ == FftInput::real) {
    if (precision_ == Precision::single)
      PSFSIM_CUDA_CHECK(
          cufftExecR2C(handle_, static_cast<cufftReal*>(input), static_cast<cufftComplex*>(out)));
    else
      PSFSIM_CUDA_CHECK(cufftExecD2Z(handle_, static_cast<cufftDoubleReal*>(input),
                                     static_cast<cufftDoubleComplex*>(out)));
    return;
  }
  if (precision_ == Precision::single)
    PSFSIM_CUDA_CHECK(cufftExecC2C(handle_, static_cast<cufftComplex*>(input),
                                   static_cast<cufftComplex*>(out), CUFFT_FORWARD));
  else
    PSFSIM_CUDA_CHECK(cufftExecZ2Z(handle_, static_cast<cufftDoubleComplex*>(input),
                                   static_cast<cufftDoubleComplex*>(out), CUFFT_FORWARD));
}

std::size_t FftPlan::work_bytes(const FftShape& shape, Precision precision) {
  ScopedHandle probe;
  long long n[2] = {shape.padded, shape.padded};
  std::size_t work = 0;
  PSFSIM_CUDA_CHECK(cufftGetSizeMany64(probe.handle, shape.rank, n, nullptr, 1, 0, nullptr, 1, 0,
                                       transform_type(precision, shape.input), shape.batch, &work));
  return work;
}

}  // namespace psfsim::cuda

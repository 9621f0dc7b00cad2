#include "cuda_check.hpp"

#include <string>

#include "cublas_library.hpp"
#include "psfsim/errors.hpp"

namespace psfsim::cuda::detail {

void throw_failure(const char* call, const char* what, const char* file, int line) {
  std::string where = file;
  if (const auto slash = where.find_last_of('/'); slash != std::string::npos)
    where.erase(0, slash + 1);
  throw RuntimeFailure(std::string("CUDA: ") + call + " failed: " + what + " (" + where + ":" +
                       std::to_string(line) + ")");
}

const char* cufft_result_name(cufftResult result) noexcept {
  switch (result) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED (out of device memory)";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "unknown cufftResult";
  }
}

const char* cublas_status_name(cublasStatus_t status) noexcept {
  const char* name = cublas_status_name_if_open(status);
  return name != nullptr ? name : "unknown cublasStatus_t";
}

}  // namespace psfsim::cuda::detail

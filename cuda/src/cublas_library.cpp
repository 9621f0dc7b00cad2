#include "cublas_library.hpp"

#include <cufft.h>
#include <dlfcn.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "psfsim/shared_library.hpp"

namespace psfsim::cuda {
namespace {

// Set once cublas() has opened the library, for cublas_status_name_if_open.
std::atomic<const CublasLibrary*> opened{nullptr};

const std::string soname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);

// Through the loader's paths, else beside cuFFT's library, which the executable links.
std::vector<std::string> candidates() {
  std::vector<std::string> names{soname};
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&cufftPlanMany), &info) != 0 &&
      info.dli_fname != nullptr)
    names.push_back((std::filesystem::path(info.dli_fname).parent_path() / soname).string());
  return names;
}

CublasLibrary open_cublas() {
  const SharedLibrary so(candidates(), "cuBLAS, for --propagation mft on the GPU");
  CublasLibrary library;
  so.bind("cublasCreate_v2", library.create);
  so.bind("cublasDestroy_v2", library.destroy);
  so.bind("cublasSetStream_v2", library.set_stream);
  so.bind("cublasSetWorkspace_v2", library.set_workspace);
  so.bind("cublasCgemmStridedBatched", library.cgemm_strided_batched);
  so.bind("cublasCgemm3mStridedBatched", library.cgemm3m_strided_batched);
  so.bind("cublasZgemmStridedBatched", library.zgemm_strided_batched);
  so.bind("cublasSgemmStridedBatched", library.sgemm_strided_batched);
  so.bind("cublasDgemmStridedBatched", library.dgemm_strided_batched);
  so.bind("cublasGetStatusName", library.status_name);
  return library;
}

}  // namespace

const CublasLibrary& cublas() {
  // Opened once, by whichever thread comes first; a failure is thrown to each caller.
  static const CublasLibrary library = open_cublas();
  opened.store(&library);
  return library;
}

const char* cublas_status_name_if_open(cublasStatus_t status) noexcept {
  const CublasLibrary* library = opened.load();
  return library != nullptr ? library->status_name(status) : nullptr;
}

}  // namespace psfsim::cuda

#include "cublas_library.hpp"

#include <cufft.h>
#include <dlfcn.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <string>

#include "psfsim/errors.hpp"

namespace psfsim::cuda {
namespace {

std::atomic<const CublasLibrary*> opened{nullptr};

const std::string soname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);

void* open_library() {
  if (void* handle = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  // Installed beside cuFFT, which the executable links (and so found).
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&cufftPlanMany), &info) != 0 &&
      info.dli_fname != nullptr) {
    const auto beside = std::filesystem::path(info.dli_fname).parent_path() / soname;
    if (void* handle = dlopen(beside.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  }
  const char* why = dlerror();
  throw RuntimeFailure("cannot open " + soname + " (cuBLAS, for --propagation mft on the GPU)" +
                       (why != nullptr ? std::string(": ") + why : std::string()));
}

template <typename Function>
void bind(void* handle, const char* name, Function& to) {
  to = reinterpret_cast<Function>(dlsym(handle, name));
  if (to == nullptr) throw RuntimeFailure(soname + " has no " + name);
}

}  // namespace

const CublasLibrary& cublas() {
  static std::mutex mutex;
  if (const CublasLibrary* library = opened.load()) return *library;
  std::lock_guard lock(mutex);
  if (const CublasLibrary* library = opened.load()) return *library;
  static CublasLibrary library;
  void* handle = open_library();  // kept open for the process's life
  bind(handle, "cublasCreate_v2", library.create);
  bind(handle, "cublasDestroy_v2", library.destroy);
  bind(handle, "cublasSetStream_v2", library.set_stream);
  bind(handle, "cublasSetWorkspace_v2", library.set_workspace);
  bind(handle, "cublasCgemmStridedBatched", library.cgemm_strided_batched);
  bind(handle, "cublasCgemm3mStridedBatched", library.cgemm3m_strided_batched);
  bind(handle, "cublasZgemmStridedBatched", library.zgemm_strided_batched);
  bind(handle, "cublasSgemmStridedBatched", library.sgemm_strided_batched);
  bind(handle, "cublasDgemmStridedBatched", library.dgemm_strided_batched);
  bind(handle, "cublasGetStatusName", library.status_name);
  opened.store(&library);
  return library;
}

const char* cublas_status_name_if_open(cublasStatus_t status) noexcept {
  const CublasLibrary* library = opened.load();
  return library != nullptr ? library->status_name(status) : nullptr;
}

}  // namespace psfsim::cuda

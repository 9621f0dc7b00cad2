#include "openblas_library.hpp"

#include <dlfcn.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <string>

#include "psfsim/errors.hpp"

namespace psfsim::cpu {
namespace {

std::atomic<const OpenBlasLibrary*> opened{nullptr};

constexpr const char* soname = "libopenblas.so.0";

void* open_library() {
  // The OpenBLAS whose cblas.h psfsim was built with (pkg-config's), then the loader's.
  const auto built_with = std::filesystem::path(PSFSIM_OPENBLAS_LIBDIR) / soname;
  for (const std::string& name : {built_with.string(), std::string(soname)})
    if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  const char* why = dlerror();
  throw RuntimeFailure(std::string("cannot open ") + soname +
                       " (OpenBLAS, for --propagation mft on the CPU; Debian: libopenblas0)" +
                       (why != nullptr ? std::string(": ") + why : std::string()));
}

template <typename Function>
void bind(void* handle, const char* name, Function& to) {
  to = reinterpret_cast<Function>(dlsym(handle, name));
  if (to == nullptr) throw RuntimeFailure(std::string(soname) + " has no " + name);
}

}  // namespace

const OpenBlasLibrary& openblas() {
  static std::mutex mutex;
  if (const OpenBlasLibrary* library = opened.load()) return *library;
  std::lock_guard lock(mutex);
  if (const OpenBlasLibrary* library = opened.load()) return *library;
  static OpenBlasLibrary library;
  void* handle = open_library();  // kept open for the process's life
  bind(handle, "cblas_cgemm", library.cgemm);
  bind(handle, "cblas_zgemm", library.zgemm);
  bind(handle, "openblas_set_num_threads", library.set_num_threads);
  bind(handle, "openblas_get_num_threads", library.get_num_threads);
  bind(handle, "openblas_get_corename", library.corename);
  bind(handle, "openblas_get_config", library.config);
  opened.store(&library);
  return library;
}

}  // namespace psfsim::cpu

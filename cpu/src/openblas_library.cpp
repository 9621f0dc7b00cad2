#include "openblas_library.hpp"

#include <filesystem>
#include <string>

#include "psfsim/shared_library.hpp"

namespace psfsim::cpu {
namespace {

OpenBlasLibrary open_openblas() {
  // The OpenBLAS whose cblas.h psfsim was built with (pkg-config's), then the loader's.
  const std::string soname = "libopenblas.so.0";
  const auto built_with = std::filesystem::path(PSFSIM_OPENBLAS_LIBDIR) / soname;
  const SharedLibrary so({built_with.string(), soname},
                         "OpenBLAS, for --propagation mft on the CPU; Debian: libopenblas0",
                         /*own_copy=*/true);
  OpenBlasLibrary library;
  so.bind("cblas_cgemm", library.cgemm);
  so.bind("cblas_zgemm", library.zgemm);
  so.bind("openblas_set_num_threads", library.set_num_threads);
  so.bind("openblas_get_num_threads", library.get_num_threads);
  so.bind("openblas_get_corename", library.corename);
  so.bind("openblas_get_config", library.config);
  return library;
}

}  // namespace

const OpenBlasLibrary& openblas() {
  // Opened once, by whichever thread comes first; a failure is thrown to each caller.
  static const OpenBlasLibrary library = open_openblas();
  return library;
}

}  // namespace psfsim::cpu

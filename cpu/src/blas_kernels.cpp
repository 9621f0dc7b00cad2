#include "psfsim/cpu/blas_kernels.hpp"

#include <cstdlib>

#include "openblas_library.hpp"

namespace psfsim::cpu {

std::string openblas_core_for(CpuVectorUnits cpu) {
  if (cpu.avx512) return "SkylakeX";
  if (cpu.avx2_fma) return "Haswell";
  return {};
}

void set_openblas_environment() {
  if (std::getenv("OPENBLAS_CORETYPE") == nullptr) {
    const std::string core = openblas_core_for(this_cpu_vector_units());
    if (!core.empty()) setenv("OPENBLAS_CORETYPE", core.c_str(), 0);
  }
  setenv("OPENBLAS_NUM_THREADS", "1", 0);
}

std::string blas_kernels_line() {
  const OpenBlasLibrary& blas = openblas();
  // "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ...": its name and version.
  const std::string config = blas.config();
  const std::size_t second_space = config.find(' ', config.find(' ') + 1);
  std::string line = config.substr(0, second_space) + ", kernels: " + blas.corename();
  if (const char* asked = std::getenv("OPENBLAS_CORETYPE"))
    line += " (OPENBLAS_CORETYPE=" + std::string(asked) + ")";
  return line;
}

}  // namespace psfsim::cpu

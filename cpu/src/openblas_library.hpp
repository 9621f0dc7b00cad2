#pragma once
// OpenBLAS, opened on the CPU MFT's first use rather than at every start: loaded with the
// executable, its pool threads spin for a while after the start on the cores a single FFT
// PSF wants, and it reads OPENBLAS_CORETYPE (psfsim/cpu/blas_kernels.hpp) only as it loads.
#include <cblas.h>  // its declarations, for the functions' types; nothing is linked

namespace psfsim::cpu {

struct OpenBlasLibrary {
  decltype(&cblas_cgemm) cgemm = nullptr;
  decltype(&cblas_zgemm) zgemm = nullptr;
  decltype(&openblas_set_num_threads) set_num_threads = nullptr;
  decltype(&openblas_get_num_threads) get_num_threads = nullptr;
  decltype(&openblas_get_corename) corename = nullptr;
  decltype(&openblas_get_config) config = nullptr;
};

// Opens it the first time (RuntimeFailure naming the library if it cannot), from any thread.
[[nodiscard]] const OpenBlasLibrary& openblas();

}  // namespace psfsim::cpu

#pragma once
// Which kernels OpenBLAS runs the CPU MFT's products with. It picks them for the CPU when it
// loads, and Debian 12's OpenBLAS (0.3.21) does not know CPUs newer than itself: on an
// Emerald Rapids Xeon it takes its generic Prescott kernels, several times slower there than
// its SkylakeX kernels (bench/results/2026-12-01-queued-calls.md). So psfsim names
// the kernels for the CPU's vector units itself, unless the user has (OPENBLAS_CORETYPE); for
// gemm they are the ones OpenBLAS would pick on any x86-64 CPU it knows.
#include <string>

#include "psfsim/host_cores.hpp"

namespace psfsim::cpu {

// The OPENBLAS_CORETYPE for these units: SkylakeX with AVX-512, Haswell with AVX2 and FMA;
// empty where OpenBLAS's own choice stands.
[[nodiscard]] std::string openblas_core_for(CpuVectorUnits cpu);

// Sets OPENBLAS_CORETYPE (as above) and OPENBLAS_NUM_THREADS=1 (psfsim threads the products
// itself, so OpenBLAS's pool would only spin) where the user has not, before OpenBLAS loads
// (psfsim opens it on first use). Call before any thread starts: setenv is not thread-safe.
void set_openblas_environment();

// "OpenBLAS 0.3.21, kernels: SkylakeX", and OPENBLAS_CORETYPE when set; opens OpenBLAS.
[[nodiscard]] std::string blas_kernels_line();

}  // namespace psfsim::cpu

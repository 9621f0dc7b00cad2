#include "psfsim/host_cores.hpp"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace psfsim {

int host_cores() noexcept {
  // Read once: the C library reads it from a file each time, and the passes over a single
  // frame that ask (one Python call) are shorter than that read.
  static const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return cores;
}

int usable_cores() noexcept {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return host_cores();
  return std::clamp(CPU_COUNT(&mask), 1, host_cores());
}

CpuVectorUnits this_cpu_vector_units() noexcept {
  __builtin_cpu_init();
  CpuVectorUnits units;
  units.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  units.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                 __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                 __builtin_cpu_supports("avx512vl");
  return units;
}

}  // namespace psfsim

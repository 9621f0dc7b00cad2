#include "psfsim/host_cores.hpp"

#include <sched.h>

#include <algorithm>
#include <thread>

namespace psfsim {

int host_cores() noexcept {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

int usable_cores() noexcept {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return host_cores();
  return std::clamp(CPU_COUNT(&mask), 1, host_cores());
}

}  // namespace psfsim

#include "psfsim/memory_budget.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "psfsim/errors.hpp"

namespace psfsim {

std::size_t available_host_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * page : 0;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  char text[32];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.2f %s", bytes, units[u]);
  return text;
}

void require_memory(std::size_t needed, std::size_t available, const std::string& what,
                    const std::string& where) {
  if (needed > available)
    throw InputError(what + " needs " + format_bytes(static_cast<double>(needed)) + " of " + where +
                     ", only " + format_bytes(static_cast<double>(available)) + " available");
}

}  // namespace psfsim

#include "rank_resources.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>

#include "psfsim/builtin_backends.hpp"

namespace psfsim::app {

int rank_threads(int host_cores, int bound_cores, int ranks_on_host) noexcept {
  return std::max(1, std::min(bound_cores, host_cores / std::max(1, ranks_on_host)));
}

std::string gpu_binding_note(int host_cores, int bound_cores) {
  if (bound_cores > 1 || host_cores <= 1) return {};
  return "psfsim: note: this rank is bound to 1 of the host's " + std::to_string(host_cores) +
         " cores, which must compile, draw and write for its GPU: start the ranks with "
         "`mpirun --bind-to none` or give each several cores (`--map-by slot:PE=N`, Slurm's "
         "--cpus-per-task) (docs/scaling.md)";
}

int visible_gpus() {
  if (const char* list = std::getenv("CUDA_VISIBLE_DEVICES"); list != nullptr) {
    const std::string_view text(list);
    if (text.empty()) return 0;
    return 1 + static_cast<int>(std::count(text.begin(), text.end(), ','));
  }
  std::error_code ec;
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/driver/nvidia/gpus", ec)) {
    (void)entry;
    ++count;
  }
  if (count > 0) return count;
  // Containers often hide the driver's folder: then the device backend's runtime is asked.
  return builtin_backends().device_count();
}

}  // namespace psfsim::app

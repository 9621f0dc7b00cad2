#pragma once
// What one rank of `mpirun -n R psfsim run` may use on its host, so that ranks sharing a
// host do not oversubscribe it (docs/scaling.md).
#include <string>

namespace psfsim::app {

// CPU threads of a rank when --threads is not given: the host's cores shared evenly among
// the ranks on it, and never more than the cores the rank is bound to (mpirun binds each of
// two ranks to one core by default); at least 1.
[[nodiscard]] int rank_threads(int host_cores, int bound_cores, int ranks_on_host) noexcept;

// The one-line note for a GPU rank bound to a single core of a larger host, whose phases,
// draws and writes then share that core with the device's feeding; empty otherwise.
[[nodiscard]] std::string gpu_binding_note(int host_cores, int bound_cores);

// GPUs this process may see: the entries of CUDA_VISIBLE_DEVICES when set, else the NVIDIA
// driver's /proc/driver/nvidia/gpus, else (a container without that folder) the CUDA
// runtime's count; 0 when none tells.
[[nodiscard]] int visible_gpus();

}  // namespace psfsim::app

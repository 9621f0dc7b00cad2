#pragma once
// What one rank of `mpirun -n R psfsim run` may use on its host, so that ranks sharing a
// host do not oversubscribe it (docs/scaling.md).

namespace psfsim::app {

// CPU threads of a rank when --threads is not given: the host's cores shared evenly among
// the ranks on it, at least 1.
[[nodiscard]] int rank_threads(int cores, int ranks_on_host) noexcept;

// GPUs this process may see: the entries of CUDA_VISIBLE_DEVICES when set, else the NVIDIA
// driver's /proc/driver/nvidia/gpus, else (a container without that folder) the CUDA
// runtime's count; 0 when none tells.
[[nodiscard]] int visible_gpus();

}  // namespace psfsim::app

#pragma once
// The cores this process may run on.

namespace psfsim {

// The CPUs of this process's affinity mask (taskset, mpirun's binding, a Slurm allocation),
// which may be fewer than the host has; the host's count where the mask cannot be read.
// Thread counts chosen by psfsim never exceed it, so that a bound process does not
// oversubscribe its own cores.
[[nodiscard]] int usable_cores() noexcept;

// Every core of the host.
[[nodiscard]] int host_cores() noexcept;

}  // namespace psfsim

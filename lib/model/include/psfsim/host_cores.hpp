#pragma once
// The cores this process may run on, and what they can run.

namespace psfsim {

// The CPUs of this process's affinity mask (taskset, mpirun's binding, a Slurm allocation),
// which may be fewer than the host has; the host's count where the mask cannot be read.
// Thread counts chosen by psfsim never exceed it, so that a bound process does not
// oversubscribe its own cores.
[[nodiscard]] int usable_cores() noexcept;

// Every core of the host.
[[nodiscard]] int host_cores() noexcept;

// The host CPU's vector units, as the compiler's CPU detection reports them.
struct CpuVectorUnits {
  bool avx2_fma = false;  // AVX2 and FMA
  bool avx512 = false;    // AVX-512 F, CD, BW, DQ and VL
};
[[nodiscard]] CpuVectorUnits this_cpu_vector_units() noexcept;

}  // namespace psfsim

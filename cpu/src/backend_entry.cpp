#include <string>
#include <vector>

#include "cpu_info.hpp"
#include "fftw_backend.hpp"
#include "mft_backend.hpp"
#include "psfsim/cpu/blas_kernels.hpp"
#include "psfsim/cpu/cpu_backend.hpp"
#include "psfsim/cpu/propagation_costs.hpp"
#include "psfsim/host_cores.hpp"

namespace psfsim::cpu {

BackendEntry backend_entry() {
  BackendEntry e;
  e.name = "cpu";
  e.summary = "FFTW on this machine's cores";
  e.unusable_reason = [] { return std::string(); };
  e.create = [](const PsfPlan& plan) -> std::unique_ptr<Backend> {
    if (plan.propagation == Propagation::mft) return make_mft_backend(plan);
    return make_fftw_backend(plan);
  };
  e.describe = [] {
    return std::vector<std::string>{cpu_model() + ", " + std::to_string(usable_cores()) + " cores",
                                    fftw_version_line() + " (threads: OpenMP)",
                                    blas_kernels_line() + " (the MFT's products)"};
  };
  e.site = ComputeSite::host;
  e.propagation_costs = [units = this_cpu_vector_units()](const PropagationWork& work) {
    return propagation_costs(work, units);
  };
  e.run_seconds = [units = this_cpu_vector_units(), cores = usable_cores()](const RunWork& w) {
    return run_seconds(w, units, cores);
  };
  e.set_up_process = [] { set_openblas_environment(); };
  return e;
}

}  // namespace psfsim::cpu

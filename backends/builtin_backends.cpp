#include "psfsim/builtin_backends.hpp"

#include "psfsim/build_config.hpp"
#include "psfsim/cpu/fftw_backend.hpp"
#if PSFSIM_HAVE_CUDA_BACKEND
#include "psfsim/cuda/cufft_backend.hpp"
#endif

namespace psfsim {

const BackendRegistry& builtin_backends() {
  static const BackendRegistry registry = [] {
    BackendRegistry r;
#if PSFSIM_HAVE_CUDA_BACKEND
    r.add(cuda::backend_entry());  // first: "auto" prefers a usable GPU
#endif
    r.add(cpu::backend_entry());
    return r;
  }();
  return registry;
}

}  // namespace psfsim

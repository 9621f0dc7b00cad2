#pragma once
// The frames' own check for NaN and infinity, made by the kernels that write them: the host
// reads one flag instead of every value (PsfRun scans host frames before they go anywhere).
#include <cuda_runtime_api.h>

namespace psfsim::cuda {

// Sets *non_finite to 1 for a value written as a frame's that is not finite; a null flag asks
// for no check. The flag is never cleared here: the call's owner clears it before launch.
template <typename Real>
__device__ inline void flag_non_finite(Real v, int* non_finite) {
  if (non_finite != nullptr && !isfinite(v)) *non_finite = 1;
}

}  // namespace psfsim::cuda

#pragma once
// exp(-2 pi i j / M) for j in [0, M), computed in double and rounded once to Real, on the
// device: the factors between the two stages of the column kernels' transforms
// (register_fft.cuh).
#include "device_complex.hpp"
#include "device_memory.hpp"

namespace psfsim::cuda {

template <typename Real>
[[nodiscard]] DeviceBuffer<DeviceComplex<Real>> column_twiddles(int padded);

}  // namespace psfsim::cuda

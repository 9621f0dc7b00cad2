#pragma once
// The interleaved complex type cuFFT reads and writes for each precision.
#include <vector_types.h>

namespace psfsim::cuda {

template <typename Real>
struct DeviceComplexOf;
template <>
struct DeviceComplexOf<float> {
  using type = float2;  // layout of cufftComplex
};
template <>
struct DeviceComplexOf<double> {
  using type = double2;  // layout of cufftDoubleComplex
};
template <typename Real>
using DeviceComplex = typename DeviceComplexOf<Real>::type;

}  // namespace psfsim::cuda

#pragma once
// The interleaved complex type cuFFT reads and writes for each precision, and the precision
// of each Real.
#include <vector_types.h>

#include <type_traits>

#include "psfsim/enums.hpp"

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

template <typename Real>
inline constexpr Precision precision_of =
    std::is_same_v<Real, float> ? Precision::single : Precision::double_;

}  // namespace psfsim::cuda

#include "column_twiddles.hpp"

#include <cmath>
#include <numbers>
#include <vector>

#include "cuda_check.hpp"

namespace psfsim::cuda {

template <typename Real>
DeviceBuffer<DeviceComplex<Real>> column_twiddles(int padded) {
  std::vector<DeviceComplex<Real>> twiddles(static_cast<std::size_t>(padded));
  for (int j = 0; j < padded; ++j) {
    const double angle = -2.0 * std::numbers::pi * j / padded;
    twiddles[static_cast<std::size_t>(j)] = {static_cast<Real>(std::cos(angle)),
                                             static_cast<Real>(std::sin(angle))};
  }
  DeviceBuffer<DeviceComplex<Real>> device(twiddles.size());
  PSFSIM_CUDA_CHECK(
      cudaMemcpy(device.data(), twiddles.data(), device.bytes(), cudaMemcpyHostToDevice));
  return device;
}

template DeviceBuffer<DeviceComplex<float>> column_twiddles<float>(int);
template DeviceBuffer<DeviceComplex<double>> column_twiddles<double>(int);

}  // namespace psfsim::cuda

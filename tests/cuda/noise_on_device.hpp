#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "psfsim/photon_noise.hpp"

namespace psfsim::test {

// noisy_pixel on every element, computed by a CUDA kernel; returns the CUDA error, if any.
[[nodiscard]] std::string noise_on_device(const std::vector<double>& intensity, std::uint64_t frame,
                                          const NoiseModel& model, std::vector<double>& out);

}  // namespace psfsim::test

// docs/spec.md §6: the noise is keyed by (seed, frame, pixel), so the GPU and the CPU draw the same
// photo-electrons from the same intensities. Skips visibly where no CUDA device is usable.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "../test_support.hpp"
#include "noise_on_device.hpp"

namespace psfsim::test {
namespace {

TEST(CudaNoise, DeviceDrawsTheHostsPhotoElectrons) {
  if (const auto why = skip_reason("cuda"); !why.empty()) GTEST_SKIP() << why;
  // 2^20 pixels whose means span the inversion (mu < 10) and rejection samplers.
  std::vector<double> intensity(1 << 20);
  for (std::size_t i = 0; i < intensity.size(); ++i)
    intensity[i] = std::exp(-3.5 + 17.0 * static_cast<double>(i % 4096) / 4096.0);
  for (const double read_noise : {0.0, 4.0}) {
    const NoiseModel model{1.0, 2.5, read_noise, 20261130};
    std::vector<double> device;
    ASSERT_EQ(noise_on_device(intensity, 7, model, device), "");
    std::size_t counts_differ = 0, floats_differ = 0;
    double worst = 0.0;
    for (std::size_t i = 0; i < intensity.size(); ++i) {
      const double host = noisy_pixel(intensity[i], 7, i, model);
      if (read_noise == 0.0 && host != device[i]) ++counts_differ;
      if (static_cast<float>(host) != static_cast<float>(device[i])) ++floats_differ;
      worst = std::max(worst, std::fabs(device[i] - host) / (std::fabs(host) + 1.0));
    }
    // Counts are integers drawn from identical uniforms: bit for bit. With read noise the
    // normal's log and cos may differ in a double's last bits (glibc against libdevice),
    // never once the value is stored as float32 (H200 against glibc: at most 1.3e-11).
    EXPECT_EQ(counts_differ, 0u) << "read noise " << read_noise;
    EXPECT_EQ(floats_differ, 0u) << "read noise " << read_noise;
    EXPECT_LT(worst, 1e-10) << "read noise " << read_noise;
  }
}

}  // namespace
}  // namespace psfsim::test

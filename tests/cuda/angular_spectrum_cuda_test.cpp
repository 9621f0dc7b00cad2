// The GPU's angular-spectrum propagator (cuda/src/angular_spectrum.hpp) against the CPU's
// (cpu/src/angular_spectrum.hpp, tested in tests/angular_spectrum_test.cpp): a batch of
// different fields, in place and out of place, fewer fields than the batch holds, and z = 0.
// Skips visibly where no CUDA device is usable.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "../../cpu/src/angular_spectrum.hpp"
#include "../test_support.hpp"
#include "angular_spectrum.hpp"
#include "cuda_check.hpp"
#include "device_memory.hpp"
#include "psfsim/errors.hpp"

namespace psfsim::cuda {
namespace {

template <typename Real>
using Host = std::vector<std::complex<Real>>;

// `fields` random N x N fields inside a Gaussian envelope, one after another.
template <typename Real>
Host<Real> random_fields(int n, int fields, unsigned seed) {
  std::mt19937 draw(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Host<Real> out(static_cast<std::size_t>(fields) * n * n);
  for (int f = 0; f < fields; ++f)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        const double x = c - n / 2, y = r - n / 2;
        const double envelope = std::exp(-(x * x + y * y) / (0.1 * n * n));
        out[(static_cast<std::size_t>(f) * n + r) * n + c] = {
            static_cast<Real>(envelope * u(draw)), static_cast<Real>(envelope * u(draw))};
      }
  return out;
}

template <typename Real>
double relative_difference(const Host<Real>& a, const Host<Real>& b) {
  double d = 0.0, s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d += std::norm(std::complex<double>(a[i]) - std::complex<double>(b[i]));
    s += std::norm(std::complex<double>(b[i]));
  }
  return std::sqrt(d / s);
}

template <typename Real>
class CudaAngularSpectrum : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(CudaAngularSpectrum, Precisions);

template <typename Real>
constexpr double tolerance = std::is_same_v<Real, float> ? 1e-5 : 1e-12;

TYPED_TEST(CudaAngularSpectrum, EqualsTheCpuFieldByField) {
  SKIP_WITHOUT_CUDA();
  using Real = TypeParam;
  using Complex = DeviceComplex<Real>;
  for (const double z : {0.0, 2e-4, -1.5e-4}) {  // within the reach, 0.227 mm
    SCOPED_TRACE("z = " + std::to_string(z));
    const AngularSpectrumGrid grid{60, 150, 1e-6, 0.6e-6, z};  // an odd padding, M - N = 90
    constexpr int batch = 3;
    const Host<Real> in = random_fields<Real>(60, batch, 7);
    Host<Real> expected(in.size());
    cpu::AngularSpectrum<Real> cpu(grid);
    for (int f = 0; f < batch; ++f) cpu.propagate(in.data() + f * 3600, expected.data() + f * 3600);

    AngularSpectrumDevice<Real> device(grid, batch);
    DeviceBuffer<Complex> fields(in.size()), out(in.size());
    PSFSIM_CUDA_CHECK(cudaMemcpy(fields.data(), in.data(), fields.bytes(), cudaMemcpyHostToDevice));
    device.propagate(fields.data(), out.data(), batch);
    Host<Real> got(in.size());
    PSFSIM_CUDA_CHECK(cudaMemcpy(got.data(), out.data(), out.bytes(), cudaMemcpyDeviceToHost));
    EXPECT_LE(relative_difference(got, expected), tolerance<Real>);
    // In place, and one field of the three (a second plan).
    device.propagate(fields.data(), fields.data(), batch);
    device.propagate(out.data() + 3600, out.data() + 3600, 1);  // field 1 twice
    Host<Real> in_place(in.size()), twice(3600), expected_twice(3600);
    PSFSIM_CUDA_CHECK(
        cudaMemcpy(in_place.data(), fields.data(), fields.bytes(), cudaMemcpyDeviceToHost));
    PSFSIM_CUDA_CHECK(cudaMemcpy(twice.data(), out.data() + 3600, 3600 * sizeof(Complex),
                                 cudaMemcpyDeviceToHost));
    EXPECT_LE(relative_difference(in_place, expected), tolerance<Real>);
    cpu.propagate(expected.data() + 3600, expected_twice.data());
    EXPECT_LE(relative_difference(twice, expected_twice), tolerance<Real>);
    if (z == 0.0) {
      EXPECT_EQ(got, in);
    }
  }
}

TEST(CudaAngularSpectrumRange, RefusedAsOnTheCpu) {
  // The range check runs before any device call: no device needed.
  EXPECT_THROW((AngularSpectrumDevice<float>(AngularSpectrumGrid{64, 128, 10e-6, 0.5e-6, 10.0}, 1)),
               InputError);
}

}  // namespace
}  // namespace psfsim::cuda

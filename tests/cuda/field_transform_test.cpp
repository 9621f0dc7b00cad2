// The pupil's transform taken in two passes (cuFFT over the N pupil rows, then the column
// kernel) against cuFFT's 2D plan over the zero-padded field and against a direct DFT, for
// every M the column pass takes, odd and even N, both precisions, spectra and |X|^2.
// Skips visibly where no CUDA device is usable.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "../test_support.hpp"
#include "device_memory.hpp"
#include "field_transform.hpp"

namespace psfsim::cuda {
namespace {

TEST(CudaPupilRows, SplitOnlyWherePowerOfTwoColumnsAndZeroRowsExist) {
  EXPECT_TRUE(PupilRows::choose(128, 256, 64, true).split);
  EXPECT_EQ(PupilRows::choose(128, 256, 64, true).rows, 128);
  EXPECT_EQ(PupilRows::choose(128, 256, 64, true).origin, 0);
  EXPECT_TRUE(PupilRows::choose(12, 32, 10, true).split);
  EXPECT_TRUE(PupilRows::choose(512, 1024, 256, true).split);
  const PupilRows whole = PupilRows::choose(128, 256, 64, false);  // the MTF's 2D plan
  EXPECT_FALSE(whole.split);
  EXPECT_EQ(whole.rows, 256);
  EXPECT_EQ(whole.origin, 64);
  EXPECT_FALSE(PupilRows::choose(100, 200, 50, true).split);     // not a power of two
  EXPECT_FALSE(PupilRows::choose(1024, 2048, 512, true).split);  // past the column pass
  EXPECT_FALSE(PupilRows::choose(8, 16, 4, true).split);
  EXPECT_FALSE(PupilRows::choose(256, 256, 0, true).split);  // no zero rows to skip
}

template <typename Real>
using Host = std::vector<std::complex<Real>>;

// Random values in each frame's N x N window, laid out as `rows` says (the rest zero).
template <typename Real>
Host<Real> pupils(const PupilRows& rows, int n, int m, int offset, int batch, unsigned seed) {
  std::mt19937 draw(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Host<Real> out(static_cast<std::size_t>(batch) * rows.rows * m);
  for (int f = 0; f < batch; ++f)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c)
        out[(static_cast<std::size_t>(f) * rows.rows + rows.origin + r) * m + offset + c] = {
            static_cast<Real>(u(draw)), static_cast<Real>(u(draw))};
  return out;
}

struct Output {
  std::vector<double> field;      // interleaved re, im
  std::vector<double> intensity;  // |X|^2 (split only)
};

template <typename Real>
Output transform(int n, int m, int offset, int batch, bool allow_split, unsigned seed) {
  using Complex = DeviceComplex<Real>;
  cudaStream_t stream{};
  PSFSIM_CUDA_CHECK(cudaStreamCreate(&stream));
  Output out;
  {
    const FieldTransform<Real> t(n, m, offset, batch, allow_split, stream);
    const Host<Real> in = pupils<Real>(t.rows(), n, m, offset, batch, seed);
    const std::size_t plane = static_cast<std::size_t>(batch) * m * m;
    DeviceBuffer<Complex> pupil(in.size());
    DeviceBuffer<Complex> field(plane);
    PSFSIM_CUDA_CHECK(cudaMemcpy(pupil.data(), in.data(), pupil.bytes(), cudaMemcpyHostToDevice));
    t.forward(pupil.data(), field.data());
    Host<Real> x(plane);
    PSFSIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    PSFSIM_CUDA_CHECK(cudaMemcpy(x.data(), field.data(), field.bytes(), cudaMemcpyDeviceToHost));
    for (const auto& z : x) {
      out.field.push_back(z.real());
      out.field.push_back(z.imag());
    }
    if (t.rows().split) {
      DeviceBuffer<Real> intensity(plane);
      t.forward_intensity(pupil.data(), intensity.data());
      std::vector<Real> i(plane);
      PSFSIM_CUDA_CHECK(cudaStreamSynchronize(stream));
      PSFSIM_CUDA_CHECK(
          cudaMemcpy(i.data(), intensity.data(), intensity.bytes(), cudaMemcpyDeviceToHost));
      out.intensity.assign(i.begin(), i.end());
    }
  }
  cudaStreamDestroy(stream);
  return out;
}

std::vector<double> squared_modulus(const std::vector<double>& interleaved) {
  std::vector<double> out(interleaved.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] =
        interleaved[2 * i] * interleaved[2 * i] + interleaved[2 * i + 1] * interleaved[2 * i + 1];
  return out;
}

template <typename Real>
void expect_split_equals_2d(int n, int m, int batch) {
  const Precision p = precision_of<Real>;
  SCOPED_TRACE("N=" + std::to_string(n) + " M=" + std::to_string(m) + " " +
               std::string(to_string(p)));
  const int offset = (m - n) / 2;
  const Output split = transform<Real>(n, m, offset, batch, true, 7);
  const Output whole = transform<Real>(n, m, offset, batch, false, 7);
  ASSERT_EQ(split.field.size(), whole.field.size());
  ASSERT_FALSE(split.intensity.empty());
  EXPECT_LE(test::relative_l2(split.field, whole.field), test::backend_tolerance(p));
  EXPECT_LE(test::relative_l2(split.intensity, squared_modulus(whole.field)),
            test::backend_tolerance(p));
  // |X|^2 kept alone is the square of the field the same pass writes.
  EXPECT_LE(test::relative_l2(split.intensity, squared_modulus(split.field)),
            test::batching_tolerance(p));
}

TEST(CudaFieldTransform, SplitEqualsCufft2dForEveryColumnLength) {
  SKIP_WITHOUT_CUDA();
  const int cases[][3] = {{12, 32, 3},   {31, 32, 2},   {33, 64, 3},    {63, 128, 3},
                          {128, 256, 5}, {200, 512, 2}, {512, 1024, 2}, {513, 1024, 1}};
  for (const auto& c : cases) {
    expect_split_equals_2d<float>(c[0], c[1], c[2]);
    expect_split_equals_2d<double>(c[0], c[1], c[2]);
  }
}

// A direct DFT of the zero-padded field, in double: independent of cuFFT.
TEST(CudaFieldTransform, SplitEqualsADirectDft) {
  SKIP_WITHOUT_CUDA();
  const int n = 11, m = 32, offset = (m - n) / 2;
  const PupilRows rows = PupilRows::choose(n, m, offset, true);
  ASSERT_TRUE(rows.split);
  const Host<double> x = pupils<double>(rows, n, m, offset, 1, 3);
  std::vector<double> want;
  for (int u = 0; u < m; ++u)
    for (int v = 0; v < m; ++v) {
      std::complex<double> sum = 0.0;
      for (int r = 0; r < n; ++r)
        for (int c = 0; c < n; ++c) {
          const double turns = static_cast<double>(((offset + r) * u + (offset + c) * v) % m) / m;
          sum += x[static_cast<std::size_t>(r) * m + offset + c] *
                 std::polar(1.0, -2.0 * std::numbers::pi * turns);
        }
      want.push_back(sum.real());
      want.push_back(sum.imag());
    }
  EXPECT_LE(test::relative_l2(transform<double>(n, m, offset, 1, true, 3).field, want),
            test::reference_tolerance(Precision::double_));
  EXPECT_LE(test::relative_l2(transform<float>(n, m, offset, 1, true, 3).field, want),
            test::reference_tolerance(Precision::single));
}

}  // namespace
}  // namespace psfsim::cuda

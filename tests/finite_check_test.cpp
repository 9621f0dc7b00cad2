// first_non_finite_frame on blocks of one piece and of many (looked at on several cores):
// the first frame with a NaN or infinity, wherever it lies, or none.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "psfsim/finite_check.hpp"

namespace psfsim {
namespace {

template <typename Real>
void expect_first_bad_frame(std::size_t frames, std::size_t pixels, Precision precision) {
  std::vector<Real> block(frames * pixels, Real(0.5));
  EXPECT_FALSE(first_non_finite_frame(block.data(), frames, pixels, precision).has_value());
  for (const std::size_t bad : {frames - 1, frames / 2 + 1, std::size_t{0}}) {
    block[bad * pixels + pixels / 3] = std::numeric_limits<Real>::quiet_NaN();
    EXPECT_EQ(first_non_finite_frame(block.data(), frames, pixels, precision), bad) << frames;
  }
  std::fill(block.begin(), block.end(), Real(0.5));
  block.back() = -std::numeric_limits<Real>::infinity();
  EXPECT_EQ(first_non_finite_frame(block.data(), frames, pixels, precision), frames - 1);
  block.back() = std::numeric_limits<Real>::max();  // large, still finite
  EXPECT_FALSE(first_non_finite_frame(block.data(), frames, pixels, precision).has_value());
}

TEST(FiniteCheck, OnePieceAndManyPieces) {
  expect_first_bad_frame<float>(3, 64 * 64, Precision::single);
  expect_first_bad_frame<float>(2048, 64 * 64, Precision::single);    // 32 MiB: 8 pieces
  expect_first_bad_frame<double>(1500, 32 * 32, Precision::double_);  // 12 MiB: 3 pieces
}

// The scan is vectorized (a clone per vector width): a NaN or an infinity in any lane and in
// the remainder past the last whole vector is found, and the smallest and negative values
// (subnormals, -0) are finite.
template <typename Real>
void expect_every_position_found(Precision precision) {
  for (const std::size_t pixels :
       {std::size_t{1}, std::size_t{7}, std::size_t{37}, std::size_t{133}}) {
    std::vector<Real> frame(pixels, std::numeric_limits<Real>::denorm_min());
    frame.front() = Real(-0.0);
    EXPECT_FALSE(first_non_finite_frame(frame.data(), 1, pixels, precision).has_value()) << pixels;
    for (std::size_t i = 0; i < pixels; ++i) {
      for (const Real bad :
           {std::numeric_limits<Real>::quiet_NaN(), std::numeric_limits<Real>::infinity(),
            -std::numeric_limits<Real>::infinity()}) {
        const Real kept = frame[i];
        frame[i] = bad;
        EXPECT_EQ(first_non_finite_frame(frame.data(), 1, pixels, precision), 0u)
            << pixels << " values, position " << i;
        frame[i] = kept;
      }
    }
  }
}

TEST(FiniteCheck, EveryPositionOfFramesOfAnyLength) {
  expect_every_position_found<float>(Precision::single);
  expect_every_position_found<double>(Precision::double_);
}

}  // namespace
}  // namespace psfsim

// Every backend against NumPy computing the same pipeline in float64 (docs/spec.md §1): relative L2
// error below 1e-10 in double and 1e-5 in single, normalization 'none'. Then crops and the
// other normalizations against the same reference, transformed by the test itself.
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <sstream>
#include <numeric>
#include <tuple>

#include "test_support.hpp"

namespace psfsim::test {
namespace {


std::vector<Case> reference_cases() {
  std::vector<Case> cases;
  auto add = [&](int n, int m, Grid g, Aberration t, double eps) {
    Case c;
    c.samples = n;
    c.padded = m;
    c.grid = g;
    c.terms = std::move(t);
    c.obscuration = eps;
    cases.push_back(c);
  };
  // The original question: N = 128, Q = 2, numpy.linspace grid, one wave of rho^2 cos(phi).
  add(128, 256, Grid::linspace, {{{2, 1, 1.0}}, {}}, 0.0);
  add(64, 128, Grid::centered, {{}, {{4, 0.3}, {11, 0.1}, {7, -0.2}}}, 0.0);
  // Q = 2.5; Seidel with an odd power of rho (3,0) exercises the rho table.
  add(100, 250, Grid::centered, {{{4, 0, 0.25}, {2, 0, 0.5}, {3, 1, 0.2}, {3, 0, 0.1}}, {}}, 0.0);
  // Q = 3, annulus, high-order Zernikes.
  add(128, 384, Grid::linspace, {{}, {{5, 0.2}, {6, -0.1}, {22, 0.05}, {16, 0.07}}}, 0.3);
  // Odd M, where fftshift and ifftshift differ.
  add(64, 193, Grid::linspace, {{{1, 1, 0.5}}, {{8, 0.15}, {3, 0.4}}}, 0.0);
  add(100, 301, Grid::centered, {{{2, 2, 0.3}}, {{9, 0.1}, {12, -0.05}}}, 0.2);
  add(64, 160, Grid::centered, {{}, {{2, 0.25}, {37, 0.02}}}, 0.0);
  return cases;
}

using Param = std::tuple<std::string, Precision, int>;

class NumpyReference : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    if (const std::string why = numpy_missing_reason(); !why.empty()) GTEST_SKIP() << why;
    const std::string why = skip_reason(std::get<0>(GetParam()));
    if (!why.empty()) GTEST_SKIP() << std::get<0>(GetParam()) << " backend: " << why;
  }
  [[nodiscard]] Case current() const { return reference_cases()[std::get<2>(GetParam())]; }
};

TEST_P(NumpyReference, MatchesNumpyFloat64) {
  const auto [backend, precision, index] = GetParam();
  const Case c = current();
  const auto reference = numpy_reference(c);
  const auto result = compute_frame(backend, c, precision);
  const double err = relative_l2(result, reference);
  std::ostringstream text;
  text << std::scientific << std::setprecision(3) << err;
  RecordProperty("relative_l2", text.str());
  EXPECT_LT(err, reference_tolerance(precision)) << "N=" << c.samples << " M=" << c.padded;
}

TEST_P(NumpyReference, CropAndNormalizationsMatchTransformedReference) {
  const auto [backend, precision, index] = GetParam();
  Case c = current();
  const auto reference = numpy_reference(c);
  const int m = c.padded;
  // Central K x K with K of the other parity than M, so the window rule is exercised.
  const int k = (m / 3) | ((m % 2) ^ 1);
  const int start = m / 2 - k / 2;
  std::vector<double> cropped;
  for (int r = start; r < start + k; ++r)
    for (int col = start; col < start + k; ++col) cropped.push_back(reference[r * m + col]);

  c.crop = k;
  c.normalization = Normalization::sum;
  const double sum = std::accumulate(cropped.begin(), cropped.end(), 0.0);
  std::vector<double> expected = cropped;
  for (auto& v : expected) v /= sum;
  EXPECT_LT(relative_l2(compute_frame(backend, c, precision), expected),
            reference_tolerance(precision));

  // peak: divided by (sum A)^2, counted here from the aperture definition.
  double aperture = 0.0;
  for (int r = 0; r < c.samples; ++r)
    for (int col = 0; col < c.samples; ++col) {
      const auto coord = [&](int i) {
        return c.grid == Grid::centered
                   ? (i - c.samples / 2.0) * (2.0 / c.samples)
                   : (i == c.samples - 1 ? 1.0 : i * (2.0 / (c.samples - 1)) - 1.0);
      };
      const double rho = std::sqrt(coord(col) * coord(col) + coord(r) * coord(r));
      aperture += (rho <= 1.0 && rho >= c.obscuration) ? 1.0 : 0.0;
    }
  c.normalization = Normalization::peak;
  expected = cropped;
  for (auto& v : expected) v /= aperture * aperture;
  EXPECT_LT(relative_l2(compute_frame(backend, c, precision), expected),
            reference_tolerance(precision));
}

std::string param_name(const ::testing::TestParamInfo<Param>& info) {
  const auto& [backend, precision, index] = info.param;
  return backend + (precision == Precision::single ? "_single_" : "_double_") + "case" +
         std::to_string(index);
}

INSTANTIATE_TEST_SUITE_P(
    Backends, NumpyReference,
    ::testing::Combine(::testing::ValuesIn(compiled_backends()),
                       ::testing::Values(Precision::single, Precision::double_),
                       ::testing::Range(0, static_cast<int>(reference_cases().size()))),
    param_name);

}  // namespace
}  // namespace psfsim::test

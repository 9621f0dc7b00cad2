// The host's packing of a call's phase tables for the pupil kernel: each frame's (d+1)^2
// tables in the top-left corner of the batch's (D+1)^2, zeros elsewhere, the tables with rho
// after the plain ones only where a frame uses them. No device is needed.
#include <gtest/gtest.h>

#include "phase_table_packing.hpp"
#include "psfsim/aberration_polynomial.hpp"

namespace psfsim::cuda {
namespace {

TEST(PhaseTablePacking, PadsLowerDegreesAndCopiesTheBatchDegree) {
  const std::vector<AberrationPolynomial> frames{
      compile_phase(Aberration{{}, {{4, 0.25}}}),                  // degree 2, no rho
      compile_phase(Aberration{{{3, 0, 0.5, 0.0}}, {{11, 0.1}}}),  // degree 4, rho^3
      compile_phase(Aberration{{}, {{22, -0.3}}}, 4)};             // Z22 raises 4 to 6
  const BatchTableLayout layout = batch_table_layout(frames);
  ASSERT_EQ(layout.degree, 6);
  ASSERT_TRUE(layout.with_rho);
  const int stride = layout.degree + 1;
  const std::size_t table = static_cast<std::size_t>(stride) * stride;
  ASSERT_EQ(layout.doubles_per_frame(), 2 * table);
  std::vector<double> packed(frames.size() * layout.doubles_per_frame(), -1.0);
  pack_phase_tables(frames, layout, packed.data());
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const AberrationPolynomial& p = frames[f];
    const double* plain = packed.data() + f * layout.doubles_per_frame();
    const double* rho = plain + table;
    for (int a = 0; a < stride; ++a)
      for (int b = 0; b < stride; ++b) {
        const bool held = a <= p.degree && b <= p.degree;
        const std::size_t from = static_cast<std::size_t>(a) * p.stride() + b;
        const std::size_t to = static_cast<std::size_t>(a) * stride + b;
        EXPECT_EQ(plain[to], held ? p.plain[from] : 0.0)
            << "frame " << f << " x^" << a << " y^" << b;
        EXPECT_EQ(rho[to], held ? p.with_rho[from] : 0.0)
            << "frame " << f << " x^" << a << " y^" << b;
      }
  }
}

}  // namespace
}  // namespace psfsim::cuda

// PhaseTemplate against compile_phase: the same frames give the same tables, bit for bit,
// whatever the template's terms override, add, rotate or scale.
#include <gtest/gtest.h>

#include <random>

#include "psfsim/phase_template.hpp"

namespace psfsim {
namespace {

// A frame as the run compiles it: `fixed`, each id set over it, then in waves.
AberrationPolynomial compiled_frame(const Aberration& fixed, const std::vector<TermId>& ids,
                                    const std::vector<double>& values, int degree, double scale) {
  Aberration frame = fixed;
  for (std::size_t k = 0; k < ids.size(); ++k) set_term(frame, ids[k], values[k]);
  if (scale != 1.0) {
    for (auto& t : frame.seidel) t.waves *= scale;
    for (auto& t : frame.zernike) t.waves *= scale;
  }
  return compile_phase(frame, degree);
}

void expect_same_tables(const AberrationPolynomial& a, const AberrationPolynomial& b) {
  ASSERT_EQ(a.degree, b.degree);
  ASSERT_EQ(a.plain.size(), b.plain.size());
  ASSERT_EQ(a.with_rho.size(), b.with_rho.size());
  for (std::size_t i = 0; i < a.plain.size(); ++i) {
    EXPECT_EQ(a.plain[i], b.plain[i]) << "plain cell " << i;
    EXPECT_EQ(a.with_rho[i], b.with_rho[i]) << "rho cell " << i;
  }
}

TermId zernike_id(int j, double divisor = 1.0) { return {true, j, 0, 0, divisor, -1}; }
TermId seidel_id(int l, int m) { return {false, 0, l, m, 1.0, -1}; }

TEST(PhaseTemplate, MatchesCompilePhaseBitForBit) {
  // Fixed terms that ids override (Z4, S3_1) and keep (Z11, a rotated S4_2), ids the frame
  // lacks (Z7 under a convention's divisor, S2_2), at unit and non-unit scale.
  Aberration fixed;
  fixed.seidel = {{3, 1, 0.2, 0.0}, {4, 2, 0.07, 0.6}};
  fixed.zernike = {{4, 0.3}, {11, -0.05}};
  const std::vector<TermId> ids{zernike_id(7, 1.7320508075688772), zernike_id(4), seidel_id(3, 1),
                                seidel_id(2, 2)};
  std::mt19937_64 rng(5);
  std::normal_distribution<double> draw(0.0, 0.3);
  for (const double scale : {1.0, 1.0 / 0.6328}) {
    for (const int degree : {0, 6}) {
      const auto t = PhaseTemplate::make(fixed, ids, degree, scale);
      ASSERT_TRUE(t.has_value());
      AberrationPolynomial reused;  // one polynomial for every frame, as a run reuses it
      for (int f = 0; f < 50; ++f) {
        std::vector<double> user(ids.size());
        for (double& v : user) v = draw(rng);
        std::vector<double> stored(ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k) stored[k] = stored_value(ids[k], user[k]);
        t->compile(stored.data(), 1, reused);
        expect_same_tables(reused, compiled_frame(fixed, ids, user, degree, scale));
      }
    }
  }
}

TEST(PhaseTemplate, ReadsStridedValuesAndShrinksAReusedPolynomial) {
  const std::vector<TermId> ids{zernike_id(4), zernike_id(22)};
  const auto t = PhaseTemplate::make(Aberration{}, ids, 0, 1.0);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->degree(), 6);  // Z22's radial order
  // Two frames stored as columns of a (terms x frames) table: stride = frames.
  const double table[] = {0.1, -0.2, 0.03, 0.04};
  AberrationPolynomial reused = compile_phase(Aberration{{{8, 0, 1.0}}, {}});  // degree 8
  t->compile(table + 1, 2, reused);
  expect_same_tables(reused, compiled_frame({}, ids, {-0.2, 0.04}, 0, 1.0));
}

TEST(PhaseTemplate, NoTemplateForTermsThatPlaceTheFrame) {
  const std::vector<TermId> ids{zernike_id(4), {false, 0, 0, 0, 1.0, 0}};
  EXPECT_FALSE(PhaseTemplate::make(Aberration{}, ids, 0, 1.0).has_value());
}

}  // namespace
}  // namespace psfsim

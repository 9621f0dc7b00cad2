// OpenBLAS's kernels (cpu/src/blas_kernels.cpp): which OPENBLAS_CORETYPE psfsim asks for, and
// that the psfsim process runs with kernels as good as its CPU allows.
#include "psfsim/cpu/blas_kernels.hpp"

#include <gtest/gtest.h>

#include <string>

#include "test_support.hpp"

namespace psfsim::cpu {
namespace {

TEST(BlasKernels, TheKernelsFollowTheVectorUnits) {
  EXPECT_EQ(openblas_core_for({true, true}), "SkylakeX");
  EXPECT_EQ(openblas_core_for({true, false}), "Haswell");
  EXPECT_EQ(openblas_core_for({false, false}), "");  // OpenBLAS's own choice
}

// `psfsim info` names the kernels psfsim's products run with: on this machine, those of its
// vector units (the user sets no OPENBLAS_CORETYPE here), whatever OpenBLAS knows of it.
TEST(BlasKernels, PsfsimRunsWithTheKernelsOfItsVectorUnits) {
  const auto r = test::run_psfsim("info");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string& text = r.stdout_text;
  const auto at = text.find(", kernels: ");
  ASSERT_NE(at, std::string::npos) << text;
  const std::size_t from = at + 11;
  const std::string core = text.substr(from, text.find_first_of(" \n", from) - from);
  const std::string expected = openblas_core_for(this_cpu_vector_units());
  if (expected.empty()) GTEST_SKIP() << "no AVX2: OpenBLAS's own choice, " << core;
  EXPECT_EQ(core, expected) << text;
}

}  // namespace
}  // namespace psfsim::cpu

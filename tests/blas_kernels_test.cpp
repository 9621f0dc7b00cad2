// OpenBLAS's kernels (cpu/src/blas_kernels.cpp): which OPENBLAS_CORETYPE psfsim asks for, and
// that the psfsim process runs with kernels as good as its CPU allows.
#include "psfsim/cpu/blas_kernels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

#include "test_support.hpp"

namespace psfsim::cpu {
namespace {

// OPENBLAS_CORETYPE is read without regard to case ("haswell" picks Haswell).
bool same_letters(const std::string& a, const std::string& b) {
  const auto lower = [](char c) { return std::tolower(static_cast<unsigned char>(c)); };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [&](char x, char y) { return lower(x) == lower(y); });
}

TEST(BlasKernels, TheKernelsFollowTheVectorUnits) {
  EXPECT_EQ(openblas_core_for({true, true}), "SkylakeX");
  EXPECT_EQ(openblas_core_for({true, false}), "Haswell");
  EXPECT_EQ(openblas_core_for({false, false}), "");  // OpenBLAS's own choice
}

// `psfsim info` names the kernels psfsim's products run with: those of the machine's vector
// units, whatever OpenBLAS knows of it, or the ones an OPENBLAS_CORETYPE set in the
// environment asks for, since psfsim leaves the user's choice alone.
TEST(BlasKernels, PsfsimRunsWithTheKernelsOfItsVectorUnits) {
  const auto r = test::run_psfsim("info");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const std::string& text = r.stdout_text;
  const auto at = text.find(", kernels: ");
  ASSERT_NE(at, std::string::npos) << text;
  const std::size_t from = at + 11;
  const std::string core = text.substr(from, text.find_first_of(" \n", from) - from);
  const char* asked = std::getenv("OPENBLAS_CORETYPE");
  const std::string expected =
      asked != nullptr ? std::string(asked) : openblas_core_for(this_cpu_vector_units());
  if (expected.empty()) GTEST_SKIP() << "no AVX2: OpenBLAS's own choice, " << core;
  EXPECT_TRUE(same_letters(core, expected)) << "expected " << expected << ": " << text;
}

}  // namespace
}  // namespace psfsim::cpu

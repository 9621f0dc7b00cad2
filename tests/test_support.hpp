#pragma once
// Shared by the test files: run a backend on one frame, run the NumPy reference, compare.
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "psfsim/backend.hpp"
#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/aberration.hpp"
#include "psfsim/psf_plan.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim {
// Readable test parameters in gtest output.
inline void PrintTo(Precision p, std::ostream* os) { *os << to_string(p); }
}  // namespace psfsim

namespace psfsim::test {

// Relative L2 error bounds, defined here only (docs/spec.md §1 for the references):
// against an independent float64 reference (NumPy, a direct DFT, an analytic result) ...
[[nodiscard]] constexpr double reference_tolerance(Precision p) {
  return p == Precision::single ? 1e-5 : 1e-10;
}
// ... between two backends computing the same frames in the same precision ...
[[nodiscard]] constexpr double backend_tolerance(Precision p) {
  return p == Precision::single ? 1e-5 : 1e-12;
}
// ... and between two calls of one backend that differ only in batching.
[[nodiscard]] constexpr double batching_tolerance(Precision p) {
  return p == Precision::single ? 1e-6 : 1e-14;
}

// Every backend compiled into this build, for parameterized suites.
[[nodiscard]] std::vector<std::string> compiled_backends();

// The name of a (backend, precision) instance of a parameterized suite: "cpu_single".
template <typename Info>
[[nodiscard]] std::string backend_and_precision(const Info& info) {
  return std::get<0>(info.param) + "_" + std::string(to_string(std::get<1>(info.param)));
}

struct Case {
  int samples = 64;
  int padded = 128;
  Grid grid = Grid::centered;
  Aberration terms;
  double obscuration = 0.0;
  Normalization normalization = Normalization::none;
  int crop = 0;  // 0: the full M x M frame
};

[[nodiscard]] Case make_case(int n, int m, Grid grid, Normalization norm, int crop = 0,
                             double eps = 0.0, Aberration terms = {});
// A backend's plan for `c`, sampled pupil included.
[[nodiscard]] PsfPlan plan_for(const Case& c, Precision precision, int max_batch = 1);
// The run specification of `c` on `backend` (one frame: c.terms).
[[nodiscard]] RunSpec spec_for(const std::string& backend, const Case& c, Precision precision);
// Every frame of `spec`, run through PsfRun into a FrameCollector, widened to double.
[[nodiscard]] std::vector<std::vector<double>> run_spec_frames(const RunSpec& spec);
// Empty string when `backend` can run here, else why not (for GTEST_SKIP).
[[nodiscard]] std::string skip_reason(const std::string& backend);
// Skips the test, visibly and saying why, where the CUDA backend cannot run.
#define SKIP_WITHOUT_CUDA()                                                    \
  do {                                                                         \
    const std::string why = ::psfsim::test::skip_reason("cuda");               \
    if (!why.empty()) GTEST_SKIP() << "CUDA backend not usable here: " << why; \
  } while (0)
// One frame from the named backend, widened to double.
[[nodiscard]] std::vector<double> compute_frame(const std::string& backend, const Case& c,
                                                Precision precision);
[[nodiscard]] std::vector<std::vector<double>> compute_frames(const std::string& backend,
                                                              const Case& c,
                                                              const std::vector<Aberration>& frames,
                                                              Precision precision);
// The frame's intensity by a direct DFT written from docs/spec.md §1 alone (float64, Seidel terms
// only, no psfsim pupil code), with the case's aperture, normalization and crop applied.
[[nodiscard]] std::vector<double> direct_dft_psf(const Case& c);

// Phase tables of `frames` at their common degree, as a run compiles them.
[[nodiscard]] std::vector<AberrationPolynomial> compile_all(const std::vector<Aberration>& frames);
// A block's frames widened to double, and its raw bytes.
[[nodiscard]] std::vector<double> widen(const FrameBlock& block, const PsfPlan& plan);
[[nodiscard]] std::vector<unsigned char> bytes_of(const FrameBlock& block, const PsfPlan& plan);

// Empty when PSFSIM_PYTHON_EXECUTABLE imports NumPy here, else why not (checked once, at run time,
// so that a test binary carried to another machine skips rather than fails there).
[[nodiscard]] std::string numpy_missing_reason();
// The NumPy pipeline (normalization none, full frame).
[[nodiscard]] std::vector<double> numpy_reference(const Case& c);
[[nodiscard]] double relative_l2(const std::vector<double>& a, const std::vector<double>& ref);

// Runs the psfsim binary with `args` (shell-quoted by the caller); captures stderr.
struct CommandResult {
  int exit_code = -1;
  std::string stderr_text;
  std::string stdout_text;
};
// `shell_prefix` runs first in the same shell, e.g. "ulimit -f 64; exec".
[[nodiscard]] CommandResult run_psfsim(const std::string& args,
                                       const std::string& shell_prefix = "");
// The folder's entries (names only), for checking that nothing was left behind.
[[nodiscard]] std::vector<std::string> folder_entries(const std::string& dir);
// True when the folder holds no .h5 file and no partial one.
[[nodiscard]] bool folder_is_empty_of_outputs(const std::string& dir);
// Writes `text` to `path`; returns the path.
std::string write_text(const std::string& path, const std::string& text);
// This test process's scratch folder, removed when the process exits unless the environment
// sets PSFSIM_KEEP_TEST_DIRS (then its path is printed, for debugging).
[[nodiscard]] std::string temp_dir();
// An empty folder `name` inside temp_dir(), emptied first if it exists.
[[nodiscard]] std::string fresh_dir(const std::string& name);

}  // namespace psfsim::test

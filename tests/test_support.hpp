#pragma once
// Shared by the test files: run a backend on one frame, run the NumPy reference, compare.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "psfsim/phase_terms.hpp"
#include "psfsim/psf_plan.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim {
// Readable test parameters in gtest output.
inline void PrintTo(Precision p, std::ostream* os) { *os << to_string(p); }
}  // namespace psfsim

namespace psfsim::test {

struct Case {
  int samples = 64;
  int padded = 128;
  Grid grid = Grid::centered;
  PhaseTerms terms;
  double obscuration = 0.0;
  Normalization normalization = Normalization::none;
  int crop = 0;  // 0: the full M x M frame
};

// A backend's plan for `c`, pupil facts included.
[[nodiscard]] PsfPlan plan_for(const Case& c, Precision precision, int max_batch = 1);
// The run specification of `c` on `backend` (one frame: c.terms).
[[nodiscard]] RunSpec spec_for(const std::string& backend, const Case& c, Precision precision);
// Empty string when `backend` can run here, else why not (for GTEST_SKIP).
[[nodiscard]] std::string skip_reason(const std::string& backend);
// One frame from the named backend, widened to double.
[[nodiscard]] std::vector<double> compute_frame(const std::string& backend, const Case& c,
                                                Precision precision);
[[nodiscard]] std::vector<std::vector<double>> compute_frames(
    const std::string& backend, const Case& c, const std::vector<PhaseTerms>& frames,
    Precision precision);
// Empty when PSFSIM_PYTHON imports NumPy here, else why not (checked once, at run time, so
// that a test binary carried to another machine skips rather than fails there).
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
[[nodiscard]] CommandResult run_psfsim(const std::string& args);
[[nodiscard]] std::string temp_dir();

}  // namespace psfsim::test

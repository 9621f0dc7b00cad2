// FFTW's planning as a stage of its own (/timings/plan and the printed table), an estimate's
// plan that no wisdom changes, and the --wisdom file's failures: a folder or a FIFO refused
// before any work, a file that cannot be saved a warning that keeps the output.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "h5_snapshot.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

// The value of the printed table's row `name` (its first number), or -1 without that row.
double table_row(const std::string& out, const std::string& name) {
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string first;
    double value = -1.0;
    if (words >> first && first == name && words >> value) return value;
  }
  return -1.0;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) out.push_back(line);
  return out;
}

TEST(Planning, PlanIsAStageOfTheTimingsAndOfThePrintedTable) {
  const std::string dir = fresh_dir("plan-stage");
  for (const std::string effort : {"estimate", "measure"}) {
    SCOPED_TRACE(effort);
    const std::string out = dir + "/" + effort + ".h5";
    const auto r = run_psfsim("run --backend cpu --samples 32 --repeat 2 --fft-effort " + effort +
                              " --wisdom " + dir + "/w -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    const H5Snapshot s = read_h5(out);
    ASSERT_EQ(s.datasets.count("/timings/plan"), 1u) << "no /timings/plan";
    ASSERT_EQ(s.datasets.at("/timings/plan").size(), 1u) << "planning happens once";
    EXPECT_GT(s.datasets.at("/timings/plan")[0], 0.0);
    EXPECT_EQ(s.datasets.at("/timings/total").size(), 2u);
    EXPECT_GT(table_row(r.stdout_text, "plan"), 0.0) << r.stdout_text;
    EXPECT_GE(table_row(r.stdout_text, "write"), 0.0) << r.stdout_text;
  }
}

TEST(Planning, AnEstimateIsTheSamePlanWhateverTheCacheHolds) {
  // FFTW answers an estimate with any measured plan of the problem it holds: without care,
  // a measured run of the same size in between would change the estimate's bits.
  const std::string dir = fresh_dir("estimate-cache");
  const std::string env = "XDG_CACHE_HOME=" + dir + "/cache";
  const std::string base =
      "run --backend cpu --samples 100 --pad-factor 2.5 --zernike 4,0.3 "
      "--quiet --force -o " +
      dir + "/x.h5 --fft-effort ";
  const auto psf = [&](const std::string& effort) {
    const auto r = run_psfsim(base + effort, env);
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    return read_h5(dir + "/x.h5").datasets.at("/psf");
  };
  const std::vector<double> before = psf("estimate");
  const std::vector<double> measured = psf("measure");
  EXPECT_TRUE(fs::exists(dir + "/cache/psfsim/fftw-wisdom")) << "the measured plan was not kept";
  const std::vector<double> after = psf("estimate");
  ASSERT_FALSE(before.empty());
  EXPECT_TRUE(before == after) << "the measured plan in the cache changed the estimate's bits";
  EXPECT_LT(relative_l2(after, measured), 1e-6);
}

TEST(Planning, AWisdomPathThatIsAFolderOrAFifoIsRefusedBeforeAnyWork) {
  const std::string dir = fresh_dir("wisdom-folder");
  ASSERT_EQ(::mkfifo((dir + "/fifo").c_str(), 0600), 0);
  for (const std::string& wisdom : {dir, dir + "/fifo"}) {
    SCOPED_TRACE(wisdom);
    const auto r =
        run_psfsim("run --backend cpu --samples 16 --wisdom " + wisdom + " -o " + dir + "/x.h5");
    EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
    const auto lines = lines_of(r.stderr_text);
    ASSERT_EQ(lines.size(), 1u) << r.stderr_text;
    EXPECT_EQ(lines[0].rfind("psfsim: error: --wisdom " + wisdom + ": ", 0), 0u) << lines[0];
    EXPECT_TRUE(folder_is_empty_of_outputs(dir));
  }
}

TEST(Planning, AWisdomFileThatCannotBeSavedWarnsOnceAndKeepsTheOutput) {
  const std::string dir = fresh_dir("wisdom-unsaved");
  const std::string wisdom = dir + "/no-such-folder/w";
  const auto r = run_psfsim(
      "run --backend cpu --samples 16 --fft-effort measure --quiet "
      "--wisdom " +
      wisdom + " -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(fs::exists(dir + "/x.h5"));
  const auto lines = lines_of(r.stderr_text);
  ASSERT_EQ(lines.size(), 1u) << r.stderr_text;
  EXPECT_EQ(lines[0].rfind("psfsim: warning: --wisdom " + wisdom + ": ", 0), 0u) << lines[0];
  EXPECT_FALSE(fs::exists(dir + "/no-such-folder"));
}

}  // namespace
}  // namespace psfsim::test

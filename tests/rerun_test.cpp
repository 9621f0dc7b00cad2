// Reruns of one command on one machine write bit-identical /psf (docs/spec.md §8): the FFTW wisdom
// cache gives every later run the first run's plans. Checked for a single frame, a batch
// and random draws, in both precisions, and with the cache turned off (whose default effort
// is estimate).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "h5_snapshot.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

std::vector<double> psf_of(const std::string& args, const std::string& cache,
                           const std::string& out) {
  const auto r = run_psfsim(args + " --quiet --force -o " + out, "XDG_CACHE_HOME=" + cache);
  EXPECT_EQ(r.exit_code, 0) << args << ": " << r.stderr_text;
  return read_h5(out).datasets.at("/psf");
}

TEST(Rerun, SameCommandWritesTheSameBits) {
  const std::string dir = temp_dir() + "/rerun";
  const std::string cache = dir + "/cache";
  fs::create_directories(dir);
  const std::vector<std::string> commands{
      // Measured plans: the second run takes the first's from the cache.
      "run --backend cpu --samples 100 --pad-factor 2.5 --zernike 4,0.3 --zernike 11,0.1 "
      "--fft-effort measure",
      // auto: one frame, an estimate, planned without the cache the run above filled.
      "run --backend cpu --samples 100 --pad-factor 2.5 --zernike 4,0.3 --zernike 11,0.1",
      "run --backend cpu --samples 64 --precision double --vary S2_0,-1,1,9 --crop 80",
      "run --backend cpu --samples 48 --random 4-15,0.1,30,7 --chunk-frames 7",
      "run --backend cpu --samples 96 --wisdom none --fft-effort estimate --seidel 2,1,1",
      // Without wisdom the default effort is estimate's: no plan is timed.
      "run --backend cpu --samples 96 --pad-factor 2.5 --wisdom none --zernike 7,0.1",
  };
  for (const std::string& command : commands) {
    SCOPED_TRACE(command);
    const auto first = psf_of(command, cache, dir + "/a.h5");
    const auto second = psf_of(command, cache, dir + "/b.h5");
    ASSERT_FALSE(first.empty());
    EXPECT_TRUE(first == second) << "the rerun differs in some bit";
  }
  EXPECT_TRUE(fs::exists(cache + "/psfsim/fftw-wisdom")) << "no wisdom cache was written";
}

TEST(Rerun, ANamedWisdomFileThatIsNotOneIsRefused) {
  const std::string dir = temp_dir() + "/bad-wisdom";
  fs::create_directories(dir);
  std::ofstream(dir + "/w") << "(not wisdom)\n";
  const auto r =
      run_psfsim("run --backend cpu --samples 16 --wisdom " + dir + "/w -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("not an FFTW wisdom file"), std::string::npos) << r.stderr_text;
  EXPECT_FALSE(fs::exists(dir + "/x.h5"));
}

TEST(Rerun, ADamagedCacheIsRebuilt) {
  const std::string dir = temp_dir() + "/damaged-cache";
  fs::create_directories(dir + "/cache/psfsim");
  std::ofstream(dir + "/cache/psfsim/fftw-wisdom") << "(garbage";
  const auto r = run_psfsim("run --backend cpu --samples 16 --quiet -o " + dir + "/x.h5",
                            "XDG_CACHE_HOME=" + dir + "/cache");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
}

}  // namespace
}  // namespace psfsim::test

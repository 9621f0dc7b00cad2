// The metrics options from the outside (docs/spec.md §7): --store metrics writes /metrics and no
// /psf, --store both both, the default with --metrics is both; bad input exits 2 with one
// `psfsim: error:` line naming the option and leaves no file; a config file's metrics keys
// really arrive in the file.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "h5_snapshot.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

// The datasets under /metrics, by name.
std::set<std::string> metric_sets(const H5Snapshot& s) {
  std::set<std::string> names;
  for (const auto& [path, values] : s.datasets)
    if (path.rfind("/metrics/", 0) == 0) names.insert(path.substr(9));
  return names;
}

using Shape = std::vector<unsigned long long>;

// Three frames (Z4 = -0.2, 0, 0.2), N = 32, M = 64, default precision (single).
const std::string three_frames = "run --backend cpu --samples 32 --vary Z4,-0.2,0.2,3 --quiet";

// `all` is every metric the run can compute: without the FFT's whole plane (an MFT run), no mtf.
TEST(MetricsCli, AllLeavesOutTheMtfWhereTheRunHasNoWholeFocalPlane) {
  const std::string dir = fresh_dir("metrics-all-mft");
  const std::string out = dir + "/m.h5";
  const auto r = run_psfsim(three_frames + " --crop 16 --propagation mft --metrics all -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const H5Snapshot s = read_h5(out);
  EXPECT_EQ(metric_sets(s), (std::set<std::string>{"strehl", "strehl_centre", "centroid_x",
                                                   "centroid_y", "fwhm", "ee", "rms_wavefront"}));
  // Named alone, the MTF is still refused there, with the reason.
  const auto mtf =
      run_psfsim(three_frames + " --crop 16 --propagation mft --metrics mtf -o " + dir + "/n.h5");
  EXPECT_EQ(mtf.exit_code, 2) << mtf.stderr_text;
  EXPECT_NE(mtf.stderr_text.find("--metrics mtf"), std::string::npos) << mtf.stderr_text;
}

TEST(MetricsCli, StoreMetricsWritesMetricsAndNoPsf) {
  const std::string dir = fresh_dir("metrics-only");
  const std::string out = dir + "/m.h5";
  const auto r = run_psfsim(three_frames + " --metrics all --store metrics -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const H5Snapshot s = read_h5(out);
  EXPECT_EQ(s.datasets.count("/psf"), 0u);
  EXPECT_EQ(s.attributes.at("/@store"), "metrics");
  EXPECT_EQ(metric_sets(s),
            (std::set<std::string>{"strehl", "strehl_centre", "centroid_x", "centroid_y", "fwhm",
                                   "ee", "rms_wavefront", "mtf"}));
  for (const char* name :
       {"strehl", "strehl_centre", "centroid_x", "centroid_y", "fwhm", "rms_wavefront"})
    EXPECT_EQ(s.shapes.at(std::string("/metrics/") + name), (Shape{3})) << name;
  // The defaults: 8 radii and 9 frequencies, recorded beside the values.
  EXPECT_EQ(s.shapes.at("/metrics/ee"), (Shape{3, 8}));
  EXPECT_EQ(s.shapes.at("/metrics/mtf"), (Shape{3, 9}));
  EXPECT_EQ(s.attributes.at("/metrics/ee@radii_lambda_over_d"),
            "0.500000,1.000000,1.220000,1.500000,2.000000,2.230000,3.000000,5.000000");
  EXPECT_EQ(s.attributes.at("/metrics/mtf@frequencies_cutoff"),
            "0.100000,0.200000,0.300000,0.400000,0.500000,0.600000,0.700000,0.800000,"
            "0.900000");
  // The values are the frames': the middle frame (Z4 = 0) is unaberrated, Strehl 1 to
  // float rounding (1e-6), the others below it and equal (+-Z4 give the same |PSF|: the
  // pupil is real up to the conjugation W -> -W with I(u) -> I(-u)); rms_wavefront |Z4|
  // to the N = 32 rim sampling (3 %).
  const auto& strehl = s.datasets.at("/metrics/strehl");
  EXPECT_NEAR(strehl[1], 1.0, 1e-6);
  EXPECT_LT(strehl[0], 0.95);
  EXPECT_NEAR(strehl[0], strehl[2], 1e-6);
  const auto& rms = s.datasets.at("/metrics/rms_wavefront");
  EXPECT_NEAR(rms[0], 0.2, 0.006);
  EXPECT_NEAR(rms[1], 0.0, 1e-7);
  EXPECT_NEAR(rms[2], 0.2, 0.006);
}

TEST(MetricsCli, StoreBothAndTheDefaultWithMetricsKeepBoth) {
  const std::string dir = fresh_dir("metrics-both");
  for (const std::string store : {" --store both", ""}) {
    SCOPED_TRACE("store option '" + store + "'");
    const std::string out = dir + "/b" + std::to_string(store.size()) + ".h5";
    const auto r = run_psfsim(three_frames + " --crop 24 --metrics strehl,ee --ee-radii 1,2.5" +
                              store + " -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    const H5Snapshot s = read_h5(out);
    EXPECT_EQ(s.attributes.at("/@store"), "both");
    EXPECT_EQ(s.shapes.at("/psf"), (Shape{3, 24, 24}));
    EXPECT_EQ(metric_sets(s), (std::set<std::string>{"strehl", "ee"}));
    EXPECT_EQ(s.shapes.at("/metrics/strehl"), (Shape{3}));
    EXPECT_EQ(s.shapes.at("/metrics/ee"), (Shape{3, 2}));
    EXPECT_EQ(s.attributes.at("/metrics/ee@radii_lambda_over_d"), "1.000000,2.500000");
    // The stored frames are peak-normalized: their maximum is the strehl column (float).
    const auto& psf = s.datasets.at("/psf");
    for (std::size_t f = 0; f < 3; ++f) {
      const double peak = *std::max_element(psf.begin() + f * 576, psf.begin() + (f + 1) * 576);
      EXPECT_NEAR(s.datasets.at("/metrics/strehl")[f], peak, 1e-6) << "frame " << f;
    }
  }
}

TEST(MetricsCli, WithoutMetricsOrWithStoreFramesThereIsNoMetricsGroup) {
  const std::string dir = fresh_dir("metrics-none");
  for (const std::string extra : {"", " --metrics strehl --store frames"}) {
    SCOPED_TRACE("'" + extra + "'");
    const std::string out = dir + "/n" + std::to_string(extra.size()) + ".h5";
    const auto r = run_psfsim(three_frames + extra + " -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    const H5Snapshot s = read_h5(out);
    EXPECT_EQ(s.attributes.at("/@store"), "frames");
    EXPECT_EQ(s.shapes.at("/psf"), (Shape{3, 64, 64}));
    EXPECT_TRUE(metric_sets(s).empty());
  }
}

struct BadMetrics {
  std::string name;
  std::string args;     // after three_frames; the output option is appended
  std::string mention;  // the error line must contain this
};

void PrintTo(const BadMetrics& b, std::ostream* os) { *os << b.args; }

class MetricsCliRejects : public ::testing::TestWithParam<BadMetrics> {};

TEST_P(MetricsCliRejects, WithExit2OneNamedLineAndNoFile) {
  const BadMetrics& bad = GetParam();
  const std::string dir = fresh_dir("metrics-reject-" + bad.name);
  const auto r = run_psfsim(three_frames + " " + bad.args + " -o " + dir + "/out.h5");
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.rfind("psfsim: error: ", 0), 0u) << r.stderr_text;
  EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find(bad.mention), std::string::npos) << r.stderr_text;
  EXPECT_TRUE(folder_is_empty_of_outputs(dir));
}

INSTANTIATE_TEST_SUITE_P(
    All, MetricsCliRejects,
    ::testing::Values(
        BadMetrics{"store_without_metrics", "--store metrics", "--store"},
        BadMetrics{"store_unknown", "--metrics strehl --store everything", "--store"},
        BadMetrics{"unknown_metric", "--metrics strehl,sharpness", "--metrics"},
        BadMetrics{"empty_metric_name", "--metrics strehl,,fwhm", "--metrics"},
        BadMetrics{"ee_radius_zero", "--metrics ee --ee-radii 0", "--ee-radii"},
        BadMetrics{"ee_radius_negative", "--metrics ee --ee-radii 1,-1", "--ee-radii"},
        BadMetrics{"ee_radius_not_a_number", "--metrics ee --ee-radii 1,two", "--ee-radii"},
        BadMetrics{"mtf_frequency_above_cutoff", "--metrics mtf --mtf-frequencies 1.5",
                   "--mtf-frequencies"},
        BadMetrics{"mtf_frequency_negative", "--metrics mtf --mtf-frequencies -0.1",
                   "--mtf-frequencies"},
        // A wrong list is refused though its metric is not asked for.
        BadMetrics{"ee_radius_negative_unused", "--metrics strehl --ee-radii -1", "--ee-radii"},
        BadMetrics{"contrast_radius_negative_unused", "--contrast-radii 2,-3", "--contrast-radii"},
        BadMetrics{"mtf_frequency_above_cutoff_unused", "--mtf-frequencies 0.5,2",
                   "--mtf-frequencies"},
        BadMetrics{"mtf_with_mft", "--metrics mtf --propagation mft", "--metrics mtf"},
        BadMetrics{"mtf_below_nyquist", "--metrics mtf --pad-factor 1.5", "--metrics mtf"}),
    [](const auto& info) { return info.param.name; });

TEST(MetricsCli, ConfigFileKeysArrive) {
  const std::string dir = fresh_dir("metrics-config");
  const std::string cfg = write_text(dir + "/m.toml",
                                     "[run]\nsamples = 32\nbackend = \"cpu\"\n"
                                     "metrics = \"strehl,ee\"\nee-radii = \"1,2\"\n"
                                     "store = \"metrics\"\n");
  const std::string out = dir + "/c.h5";
  const auto r = run_psfsim("run -c " + cfg + " --quiet -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const H5Snapshot s = read_h5(out);
  EXPECT_EQ(s.datasets.count("/psf"), 0u);
  EXPECT_EQ(s.attributes.at("/@store"), "metrics");
  EXPECT_EQ(metric_sets(s), (std::set<std::string>{"strehl", "ee"}));
  EXPECT_EQ(s.shapes.at("/metrics/ee"), (Shape{1, 2}));
  EXPECT_EQ(s.attributes.at("/metrics/ee@radii_lambda_over_d"), "1.000000,2.000000");
  // The effective configuration records them, so that the file reruns.
  const std::string& config = s.attributes.at("/@config");
  for (const char* key : {"metrics", "ee-radii", "store"})
    EXPECT_NE(config.find(key), std::string::npos) << key << " missing from:\n" << config;
  // And the command line overrides the file.
  const std::string out2 = dir + "/c2.h5";
  const auto r2 = run_psfsim("run -c " + cfg + " --store both --ee-radii 3 --quiet -o " + out2);
  ASSERT_EQ(r2.exit_code, 0) << r2.stderr_text;
  const H5Snapshot s2 = read_h5(out2);
  EXPECT_EQ(s2.attributes.at("/@store"), "both");
  EXPECT_EQ(s2.datasets.count("/psf"), 1u);
  EXPECT_EQ(s2.attributes.at("/metrics/ee@radii_lambda_over_d"), "3.000000");
}

}  // namespace
}  // namespace psfsim::test

// /psf as docs/spec.md §8 lays it out: whole frames in chunks of about 1-4 MiB, every compression
// giving back the same values, a clear error where a filter plugin is missing, and
// dimension scales (frame, y, x) with the pixel centres in lambda/D.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <sys/mount.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "h5_snapshot.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

struct Layout {
  std::vector<hsize_t> chunk;
  std::vector<H5Z_filter_t> filters;
  std::vector<std::string> scales;  // name of the scale attached to each axis
};

std::string scale_name(hid_t psf, unsigned axis) {
  std::string name;
  H5DSiterate_scales(
      psf, axis, nullptr,
      [](hid_t, unsigned, hid_t scale, void* data) -> herr_t {
        char text[64] = {};
        H5DSget_scale_name(scale, text, sizeof text);
        *static_cast<std::string*>(data) = text;
        return 1;
      },
      &name);
  return name;
}

Layout layout_of(const std::string& path) {
  Layout l;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t psf = H5Dopen2(file, "psf", H5P_DEFAULT);
  const hid_t create = H5Dget_create_plist(psf);
  l.chunk.resize(3);
  H5Pget_chunk(create, 3, l.chunk.data());
  for (int i = 0; i < H5Pget_nfilters(create); ++i) {
    unsigned flags = 0;
    std::size_t n = 0;
    l.filters.push_back(H5Pget_filter2(create, i, &flags, &n, nullptr, 0, nullptr, nullptr));
  }
  for (unsigned axis = 0; axis < 3; ++axis) l.scales.push_back(scale_name(psf, axis));
  H5Pclose(create);
  H5Dclose(psf);
  H5Fclose(file);
  return l;
}

// No wisdom: runs whose values are compared must not pick up a plan that a concurrent test
// adds to the shared cache in between.
const std::string batch =
    "run --backend cpu --samples 32 --crop 48 --random 4-9,0.1,600,3 --quiet "
    "--force --fft-effort estimate --wisdom none";

TEST(PsfLayout, ChunksHoldWholeFramesOfAboutOneToFourMiB) {
  const std::string dir = temp_dir() + "/layout-chunks";
  fs::create_directories(dir);
  for (const std::string precision : {"single", "double"}) {
    const std::string out = dir + "/" + precision + ".h5";
    ASSERT_EQ(run_psfsim(batch + " --precision " + precision + " -o " + out).exit_code, 0);
    const Layout l = layout_of(out);
    EXPECT_EQ(l.chunk[1], 48u);
    EXPECT_EQ(l.chunk[2], 48u);
    const double bytes = l.chunk[0] * 48.0 * 48.0 * (precision == "single" ? 4 : 8);
    EXPECT_GE(bytes, 1 << 20) << precision;
    EXPECT_LE(bytes, 4 << 20) << precision;
  }
  // A frame larger than 4 MiB is split by rows.
  const std::string big = dir + "/big.h5";
  ASSERT_EQ(run_psfsim("run --backend cpu --samples 640 --pad-factor 2 --precision double "
                       "--fft-effort estimate --quiet -o " +
                       big)
                .exit_code,
            0);
  const Layout l = layout_of(big);
  EXPECT_EQ(l.chunk[0], 1u);
  EXPECT_EQ(l.chunk[2], 1280u);
  EXPECT_LE(l.chunk[1] * 1280.0 * 8, 4 << 20);
}

std::vector<double> run_and_read(const std::string& args, const std::string& out) {
  const auto r = run_psfsim(args + " -o " + out);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  return r.exit_code == 0 ? read_h5(out).datasets.at("/psf") : std::vector<double>{};
}

TEST(PsfLayout, EveryCompressionGivesBackTheSameValues) {
  const std::string dir = temp_dir() + "/layout-compression";
  fs::create_directories(dir);
  const std::vector<double> plain = run_and_read(batch + " --compression none", dir + "/none.h5");
  EXPECT_TRUE(layout_of(dir + "/none.h5").filters.empty());
  struct Expected {
    std::string option;
    std::vector<H5Z_filter_t> filters;
  };
  for (const Expected& e : {Expected{"deflate", {H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE}},
                            Expected{"deflate:9", {H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE}},
                            Expected{"lz4", {32004}}, Expected{"zstd:7", {32001}}}) {
    SCOPED_TRACE(e.option);
    const std::string out = dir + "/" + e.option + ".h5";
    const auto r = run_psfsim(batch + " --compression " + e.option + " -o " + out);
    if (r.exit_code == 3 && r.stderr_text.find("plugin is not installed") != std::string::npos) {
      ADD_FAILURE() << "filter plugin missing: .ci/install-deps installs it\n" << r.stderr_text;
      continue;
    }
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    EXPECT_EQ(layout_of(out).filters, e.filters);
    EXPECT_TRUE(read_h5(out).datasets.at("/psf") == plain) << "values changed";
  }
}

// Uncompressed frames are copied straight into their chunks' places in the file; deflate
// goes through HDF5's own writes. Both must hold the same values where calls end inside a
// chunk (7 frames a call, chunks of 455), at the batch's partial last chunk, and where a
// frame larger than 4 MiB is split into chunks of rows.
TEST(PsfLayout, FramesCopiedIntoTheFileEqualTheLibrarysWrites) {
  const std::string dir = temp_dir() + "/layout-mapped";
  fs::create_directories(dir);
  for (const std::string& args :
       {batch + " --chunk-frames 7",
        std::string("run --backend cpu --samples 640 --pad-factor 2 --precision double "
                    "--vary Z4,-1,1,3 --fft-effort estimate --wisdom none --quiet --force")}) {
    SCOPED_TRACE(args);
    const std::vector<double> mapped = run_and_read(args + " --compression none", dir + "/m.h5");
    const std::vector<double> library =
        run_and_read(args + " --compression deflate:1", dir + "/d.h5");
    ASSERT_FALSE(mapped.empty());
    EXPECT_TRUE(mapped == library) << "values differ";
  }
}

// ramfs cannot allocate a file's space ahead (fallocate: EOPNOTSUPP): the frames go through
// HDF5's writes there, to the same values. Mounting needs root; elsewhere this skips.
TEST(PsfLayout, WhereSpaceCannotBeReservedTheLibraryWritesTheFrames) {
  const std::string dir = fresh_dir("layout-ramfs");
  if (::mount("ramfs", dir.c_str(), "ramfs", 0, nullptr) != 0)
    GTEST_SKIP() << "cannot mount a ramfs here (" << std::strerror(errno) << ")";
  const std::string args = batch + " --chunk-frames 7 --compression none";
  const std::vector<double> ramfs = run_and_read(args, dir + "/x.h5");
  const std::vector<double> reserved = run_and_read(args, temp_dir() + "/layout-reserved.h5");
  ::umount2(dir.c_str(), MNT_DETACH);
  ASSERT_FALSE(ramfs.empty());
  EXPECT_TRUE(ramfs == reserved) << "values differ";
}

TEST(PsfLayout, AMissingFilterPluginIsOneLineNamingThePackage) {
  const std::string dir = temp_dir() + "/layout-no-plugin";
  fs::create_directories(dir);
  for (const auto& [option, package] : {std::pair{"lz4", "hdf5-filter-plugin"},
                                        std::pair{"zstd", "hdf5-filter-plugin-blosc-serial"}}) {
    const auto r = run_psfsim(batch + " --compression " + option + " -o " + dir + "/x.h5",
                              "HDF5_PLUGIN_PATH=" + dir + "/no-plugins");
    EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
    EXPECT_NE(r.stderr_text.find(package), std::string::npos) << r.stderr_text;
    EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
    EXPECT_TRUE(folder_entries(dir).empty());
  }
}

TEST(PsfLayout, DimensionScalesGiveFrameIndexAndPixelCentres) {
  const std::string dir = temp_dir() + "/layout-scales";
  fs::create_directories(dir);
  const std::string out = dir + "/s.h5";
  // N = 40, M = 100: pixel 0.4 lambda/D; K = 15 (odd): centres -7..7 pixels.
  ASSERT_EQ(run_psfsim("run --backend cpu --samples 40 --padded-size 100 --crop 15 "
                       "--vary Z4,0,1,3 --quiet -o " +
                       out)
                .exit_code,
            0);
  EXPECT_EQ(layout_of(out).scales, (std::vector<std::string>{"frame", "y", "x"}));
  const H5Snapshot s = read_h5(out);
  EXPECT_EQ(s.datasets.at("/frame"), (std::vector<double>{0, 1, 2}));
  ASSERT_EQ(s.datasets.at("/x").size(), 15u);
  for (int i = 0; i < 15; ++i) {
    EXPECT_NEAR(s.datasets.at("/x")[i], (i - 7) * 0.4, 1e-12) << i;
    EXPECT_NEAR(s.datasets.at("/y")[i], (i - 7) * 0.4, 1e-12) << i;
  }
  EXPECT_EQ(s.attributes.at("/x@units"), "lambda/D");
  EXPECT_EQ(s.attributes.at("/psf@compression"), "none");
}

}  // namespace
}  // namespace psfsim::test

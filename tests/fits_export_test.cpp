// `psfsim export` from the outside: a bad input or output path exits 2, a FITS write that
// fails exits 3, each with one `psfsim: error:` line naming the file and no file left behind.
// What the FITS file holds is checked with astropy by check_fits_export.py.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

void expect_one_line_error(const CommandResult& r, int code, const std::string& mention) {
  EXPECT_EQ(r.exit_code, code) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.rfind("psfsim: error: ", 0), 0u) << r.stderr_text;
  EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find(mention), std::string::npos) << r.stderr_text;
}

// A small psfsim file of 3 frames in its own folder, made once.
const std::string& small_input() {
  static const std::string path = [] {
    const std::string file = fresh_dir("fits-input") + "/in.h5";
    const auto r = run_psfsim(
        "run --backend cpu --quiet --samples 32 --pad-factor 4 "
        "--vary Z4,-0.5,0.5,3 --fft-effort estimate -o " +
        file);
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    return file;
  }();
  return path;
}

// An HDF5 file without /psf (what a sweep or a --store metrics run leaves to export).
std::string file_without_psf(const std::string& dir) {
  const std::string path = dir + "/no-psf.h5";
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  const hid_t group = H5Gcreate2(file, "parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Gclose(group);
  H5Fclose(file);
  return path;
}

TEST(FitsExport, WritesTheFileAndKeepsAnExistingOneWithoutForce) {
  const std::string dir = fresh_dir("fits-ok");
  const std::string out = dir + "/out.fits";
  const auto r = run_psfsim("export " + small_input() + " --fits " + out);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("wrote " + out + ": 3 x 128 x 128 float32"), std::string::npos)
      << r.stdout_text;
  EXPECT_EQ(folder_entries(dir), std::vector<std::string>{"out.fits"});
  const auto size = fs::file_size(out);
  EXPECT_EQ(size % 2880, 0u);  // FITS files are whole 2880-byte records

  std::ofstream(out, std::ios::trunc) << "keep me";
  const auto again = run_psfsim("export " + small_input() + " --fits " + out);
  expect_one_line_error(again, 2, "--fits " + out + ": file exists (use --force");
  EXPECT_EQ(fs::file_size(out), 7u);
  EXPECT_EQ(folder_entries(dir), std::vector<std::string>{"out.fits"});

  const auto forced = run_psfsim("export " + small_input() + " --fits " + out + " --force");
  ASSERT_EQ(forced.exit_code, 0) << forced.stderr_text;
  EXPECT_EQ(fs::file_size(out), size);
}

TEST(FitsExport, BadInputsExit2NamingTheFileAndLeaveNothing) {
  const std::string inputs = fresh_dir("fits-bad-inputs");
  const std::string text = inputs + "/text.h5";
  std::ofstream(text) << "not HDF5\n";
  struct Bad {
    std::string input;
    std::string mention;
  };
  const std::vector<Bad> cases = {
      {inputs + "/missing.h5", inputs + "/missing.h5: cannot open it: No such file or directory"},
      {text, text + ": not an HDF5 file"},
      {inputs, inputs + ": is a folder"},
      {file_without_psf(inputs), "no-psf.h5: no /psf dataset"},
  };
  const std::string dir = fresh_dir("fits-bad-out");
  for (const Bad& bad : cases) {
    SCOPED_TRACE(bad.input);
    const auto r = run_psfsim("export " + bad.input + " --fits " + dir + "/out.fits");
    expect_one_line_error(r, 2, bad.mention);
    EXPECT_TRUE(folder_entries(dir).empty());
  }
}

// A missing output folder is an I/O failure (exit 3): tests/io_failure_test.cpp.
TEST(FitsExport, BadCommandLinesAndOutputFoldersExit2) {
  const std::string dir = fresh_dir("fits-bad-cli");
  expect_one_line_error(run_psfsim("export " + small_input()), 2, "--fits is required");
  expect_one_line_error(run_psfsim("export --fits " + dir + "/out.fits"), 2, "required");
  expect_one_line_error(run_psfsim("export " + small_input() + " --fits " + dir), 2,
                        "--fits " + dir + ": is a folder");
  EXPECT_TRUE(folder_entries(dir).empty());
}

// Wherever a file-size limit falls (the header, the image, the table, the final flush), the
// export fails with exit 3, CFITSIO's text and the system's reason, or succeeds.
TEST(FitsExport, WriteFailuresExit3WithNoFileLeft) {
  const std::string dir = fresh_dir("fits-fsize");
  const std::string out = dir + "/out.fits";
  ASSERT_EQ(run_psfsim("export " + small_input() + " --fits " + out).exit_code, 0);
  // ulimit -f counts blocks of 512 bytes (POSIX sh); the file's last 2880-byte records hold
  // the PARAMETERS table.
  const int whole = static_cast<int>(fs::file_size(out) / 512);
  fs::remove(out);
  int failed = 0;
  for (const int blocks : {1, 4, 8, 64, 200, whole - 8, whole - 1, whole + 8}) {
    SCOPED_TRACE("ulimit -f " + std::to_string(blocks));
    const auto r = run_psfsim("export " + small_input() + " --fits " + out + " --force",
                              "ulimit -f " + std::to_string(blocks) + "; exec");
    if (r.exit_code == 0) {
      EXPECT_EQ(folder_entries(dir), std::vector<std::string>{"out.fits"});
      fs::remove(out);
      continue;
    }
    ++failed;
    expect_one_line_error(r, 3, out + ": cannot ");
    EXPECT_NE(r.stderr_text.find("(File too large)"), std::string::npos) << r.stderr_text;
    EXPECT_TRUE(folder_entries(dir).empty());
  }
  EXPECT_EQ(failed, 7);
}

TEST(FitsExport, HelpDescribesTheCommand) {
  const auto main_help = run_psfsim("--help");
  EXPECT_EQ(main_help.exit_code, 0);
  EXPECT_NE(main_help.stdout_text.find("export"), std::string::npos) << main_help.stdout_text;
  const auto help = run_psfsim("export --help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* word : {"--fits", "--force", "PIXELSCL", "PARAMETERS"})
    EXPECT_NE(help.stdout_text.find(word), std::string::npos) << word << "\n" << help.stdout_text;
}

}  // namespace
}  // namespace psfsim::test

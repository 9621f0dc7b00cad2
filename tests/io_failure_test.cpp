// I/O failures while psfsim writes (docs/spec.md §8): a file-size limit, a full file system, a
// read-only folder. Each gives one `psfsim: error:` line naming the file and the system's
// reason, exit 3, no crash, no library error stack, and nothing left in the folder.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

void expect_one_line_failure(const CommandResult& r, const std::string& file,
                             const std::vector<std::string>& causes) {
  EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.rfind("psfsim: error: ", 0), 0u) << r.stderr_text;
  EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find(file), std::string::npos) << r.stderr_text;
  EXPECT_TRUE(std::any_of(causes.begin(), causes.end(), [&](const std::string& c) {
    return r.stderr_text.find(c) != std::string::npos;
  })) << r.stderr_text;
}

// A batch of about 4 MiB of frames in chunks of 64 frames.
const std::string big_run =
    "run --backend cpu --samples 32 --crop 64 --vary Z4,-1,1,256 --chunk-frames 64 --quiet "
    "--fft-effort estimate";

TEST(IoFailure, FileSizeLimitMidRun) {
  const std::string dir = fresh_dir("fsize");
  // ulimit -f counts blocks of 512 bytes (POSIX sh): 1 MiB, a quarter of the frames.
  const auto r = run_psfsim(big_run + " -o " + dir + "/x.h5", "ulimit -f 2048; exec");
  expect_one_line_failure(r, dir + "/x.h5", {"File too large"});
  EXPECT_TRUE(folder_entries(dir).empty());
}

// Wherever the limit falls (the superblock, the frames, /parameters, /timings, the final
// flush), the run fails cleanly or, when everything fits, succeeds.
TEST(IoFailure, EveryLimitFailsCleanlyOrSucceeds) {
  const std::string dir = fresh_dir("fsize-sweep");
  for (const int blocks : {1, 2, 4, 8, 16, 24, 32, 48, 64, 128, 256}) {
    SCOPED_TRACE("ulimit -f " + std::to_string(blocks));
    const std::string out = dir + "/x.h5";
    const auto r = run_psfsim(
        "run --backend cpu --samples 16 --crop 24 --vary Z4,-1,1,40 --chunk-frames 8 --quiet "
        "--fft-effort estimate --force -o " +
            out,
        "ulimit -f " + std::to_string(blocks) + "; exec");
    if (r.exit_code == 0) {
      EXPECT_EQ(folder_entries(dir), std::vector<std::string>{"x.h5"});
      fs::remove(out);
    } else {
      expect_one_line_failure(r, out, {"File too large"});
      EXPECT_TRUE(folder_entries(dir).empty());
    }
  }
}

// Mounting needs root (CI and the development machines run as root); elsewhere these skip,
// saying so.
class MountedFolder : public ::testing::Test {
 protected:
  void mount_tmpfs(const std::string& options) {
    dir_ = fresh_dir("mount-" + std::to_string(::getpid()));
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", options.find("ro") == 0 ? MS_RDONLY : 0,
                options.c_str()) != 0)
      GTEST_SKIP() << "cannot mount a tmpfs here (" << std::strerror(errno)
                   << "); the file-size limit tests cover the same path";
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  std::string dir_;
  bool mounted_ = false;
};

// Uncompressed frames have a known size: the space is reserved while the backend starts, and
// a folder too small for them says so, with the size, before the first frame is written.
TEST_F(MountedFolder, FullFileSystemFoundByTheReservation) {
  mount_tmpfs("size=1m");
  if (!mounted_) return;
  const auto r = run_psfsim(big_run + " -o " + dir_ + "/x.h5");
  expect_one_line_failure(r, dir_ + "/x.h5", {"No space left on device"});
  EXPECT_NE(r.stderr_text.find("cannot reserve 4.00 MiB for the frames"), std::string::npos)
      << r.stderr_text;
  EXPECT_TRUE(folder_entries(dir_).empty());
}

// Compressed frames have no size to reserve: the write that finds the disk full says so.
TEST_F(MountedFolder, FullFileSystemFoundByAFrameWrite) {
  mount_tmpfs("size=1m");
  if (!mounted_) return;
  const auto r = run_psfsim(big_run + " --compression deflate:1 -o " + dir_ + "/x.h5");
  expect_one_line_failure(r, dir_ + "/x.h5", {"No space left on device"});
  EXPECT_EQ(r.stderr_text.find("cannot reserve"), std::string::npos) << r.stderr_text;
  EXPECT_TRUE(folder_entries(dir_).empty());
}

TEST_F(MountedFolder, ReadOnlyFolderForRunAndSweep) {
  mount_tmpfs("ro,size=1m");
  if (!mounted_) return;
  auto r = run_psfsim(big_run + " -o " + dir_ + "/x.h5");
  expect_one_line_failure(r, dir_ + "/x.h5", {"Read-only file system"});
  r = run_psfsim("sweep --backends cpu --sizes 16 --repeat 1 --quiet -o " + dir_ + "/s.h5");
  expect_one_line_failure(r, dir_ + "/s.h5", {"Read-only file system"});
  EXPECT_TRUE(folder_entries(dir_).empty());
}

TEST(IoFailure, FolderWithoutWritePermission) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes through permissions; MountedFolder covers it";
  const std::string dir = fresh_dir("no-write");
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
  const auto r = run_psfsim(big_run + " -o " + dir + "/x.h5");
  fs::permissions(dir, fs::perms::owner_all);
  expect_one_line_failure(r, dir + "/x.h5", {"Permission denied"});
  EXPECT_TRUE(folder_entries(dir).empty());
}

// A folder that is not there is the same I/O failure (ENOENT), for run, sweep and export.
TEST(IoFailure, MissingFolder) {
  const std::string dir = fresh_dir("missing-folder");
  const std::string out = dir + "/no/such/folder/x.h5";
  expect_one_line_failure(run_psfsim("run --backend cpu --samples 16 --quiet -o " + out), out,
                          {"No such file or directory"});
  expect_one_line_failure(
      run_psfsim("sweep --backends cpu --sizes 16 --repeat 1 --quiet -o " + out), out,
      {"No such file or directory"});
  const std::string in = dir + "/in.h5";
  ASSERT_EQ(run_psfsim("run --backend cpu --samples 16 --quiet -o " + in).exit_code, 0);
  const std::string fits = dir + "/no/x.fits";
  expect_one_line_failure(run_psfsim("export " + in + " --fits " + fits), fits,
                          {"No such file or directory"});
  EXPECT_EQ(folder_entries(dir), std::vector<std::string>{"in.h5"});
}

TEST(IoFailure, PseudoFileSystemFolder) {
  const auto r = run_psfsim("run --backend cpu --samples 16 -o /proc/psfsim-out.h5");
  expect_one_line_failure(r, "/proc/psfsim-out.h5", {"No such file", "Permission denied"});
}

}  // namespace
}  // namespace psfsim::test

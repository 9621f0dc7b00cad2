// Nothing a user does destroys a file (docs/cli.md, "Output files"): only a regular file is
// ever replaced, and only with --force; an output that is an input is refused; a file that
// appears during a run is never replaced without --force; the partial file goes with its
// folder, fits any name, and is removed whatever stops the run; a closed pipe on stdout
// loses nothing. The two-process cases run real psfsim processes, caught mid-run by SIGSTOP.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "background_run.hpp"
#include "map_writers.hpp"
#include "psfsim/output_path.hpp"
#include "psfsim/partial_file.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

const std::string small_run =
    "run --backend cpu --samples 16 --quiet --fft-effort estimate --wisdom none";

void expect_one_line_error(const CommandResult& r, int code, const std::string& start,
                           const std::string& mention) {
  EXPECT_EQ(r.exit_code, code) << r.stderr_text;
  EXPECT_EQ(r.stderr_text.rfind("psfsim: error: " + start, 0), 0u) << r.stderr_text;
  EXPECT_EQ(std::count(r.stderr_text.begin(), r.stderr_text.end(), '\n'), 1) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find(mention), std::string::npos) << r.stderr_text;
}

mode_t entry_type(const std::string& path) {
  struct stat s {};
  return ::lstat(path.c_str(), &s) == 0 ? (s.st_mode & S_IFMT) : 0;
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool is_hdf5(const std::string& path) { return bytes_of(path).rfind("\x89HDF\r\n\x1a\n", 0) == 0; }

bool has_partial(const std::string& dir) {
  const auto names = folder_entries(dir);
  return std::any_of(names.begin(), names.end(), [](const std::string& n) {
    return n.find(".partial-") != std::string::npos || n.find(".probe-") != std::string::npos;
  });
}

// A small run file, the input of the exports below.
const std::string& export_input() {
  static const std::string path = [] {
    const std::string file = fresh_dir("safety-input") + "/in.h5";
    const auto r = run_psfsim(small_run + " -o " + file);
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    return file;
  }();
  return path;
}

// Every command refuses `path`, with and without --force, and leaves it as it was.
void expect_never_replaced(const std::string& path, const std::string& kind) {
  const mode_t before = entry_type(path);
  for (const std::string force : {"", " --force"}) {
    SCOPED_TRACE(path + force);
    expect_one_line_error(run_psfsim(small_run + " -o " + path + force), 2, "--output " + path,
                          kind);
    expect_one_line_error(
        run_psfsim("sweep --backends cpu --sizes 16 --repeat 1 --quiet -o " + path + force), 2,
        "--output " + path, kind);
    expect_one_line_error(run_psfsim("export " + export_input() + " --fits " + path + force), 2,
                          "--fits " + path, kind);
    EXPECT_EQ(entry_type(path), before);
  }
}

TEST(OutputSafety, AFifoIsNeverReplaced) {
  const std::string dir = fresh_dir("safety-fifo");
  const std::string fifo = dir + "/out.h5";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << std::strerror(errno);
  expect_never_replaced(fifo, "is a FIFO");
  EXPECT_EQ(folder_entries(dir), std::vector<std::string>{"out.h5"});
}

TEST(OutputSafety, ADeviceNodeIsNeverReplaced) {
  if (::geteuid() != 0) GTEST_SKIP() << "mknod of a device needs root; the FIFO test covers it";
  const std::string dir = fresh_dir("safety-device");
  const std::string node = dir + "/null";  // the numbers of /dev/null, in a temporary folder
  if (::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
    GTEST_SKIP() << "mknod refused here (" << std::strerror(errno) << ")";
  expect_never_replaced(node, "is a character device");
  EXPECT_EQ(folder_entries(dir), std::vector<std::string>{"null"});
}

TEST(OutputSafety, ASocketIsNeverReplaced) {
  const std::string dir = fresh_dir("safety-socket");
  const std::string path = dir + "/s.h5";
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof address.sun_path) GTEST_SKIP() << "temporary folder path too long";
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  ASSERT_EQ(::bind(s, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0)
      << std::strerror(errno);
  ::close(s);
  expect_never_replaced(path, "is a socket");
}

TEST(OutputSafety, AFolderOrALinkToOneIsNoFileName) {
  const std::string dir = fresh_dir("safety-folder");
  fs::create_directory(dir + "/sub");
  fs::create_directory_symlink("sub", dir + "/link");
  expect_never_replaced(dir + "/sub", "is a folder, not a file name");
  expect_never_replaced(dir + "/link", "is a folder, not a file name");
  EXPECT_TRUE(fs::is_empty(dir + "/sub"));
}

// Not even with --force: what the link leads to is never written, and the link stays.
TEST(OutputSafety, ASymbolicLinkIsNeverReplaced) {
  const std::string dir = fresh_dir("safety-symlink");
  write_text(dir + "/target.txt", "keep me");
  ASSERT_EQ(::mkfifo((dir + "/fifo").c_str(), 0644), 0);
  fs::create_symlink("target.txt", dir + "/to-file.h5");
  fs::create_symlink("fifo", dir + "/to-fifo.h5");
  fs::create_symlink("nowhere", dir + "/dangling.h5");
  for (const std::string name : {"to-file.h5", "to-fifo.h5", "dangling.h5"})
    expect_never_replaced(dir + "/" + name, "is a symbolic link, which psfsim never replaces");
  EXPECT_EQ(bytes_of(dir + "/target.txt"), "keep me");
  EXPECT_EQ(entry_type(dir + "/fifo"), S_IFIFO);
  EXPECT_EQ(folder_entries(dir), (std::vector<std::string>{"dangling.h5", "fifo", "target.txt",
                                                           "to-fifo.h5", "to-file.h5"}));
}

// `export a.h5 --fits a.h5 --force` once made a.h5 a FITS file.
TEST(OutputSafety, AnOutputThatIsItsInputIsRefused) {
  const std::string dir = fresh_dir("safety-same");
  const std::string in = dir + "/a.h5";
  ASSERT_EQ(run_psfsim(small_run + " -o " + in).exit_code, 0);
  const std::string original = bytes_of(in);
  fs::create_hard_link(in, dir + "/hard.h5");
  fs::create_symlink("a.h5", dir + "/soft.h5");
  for (const std::string& out : {in, dir + "/hard.h5", dir + "/soft.h5"}) {
    SCOPED_TRACE(out);
    expect_one_line_error(run_psfsim("export " + in + " --fits " + out + " --force"), 2,
                          "--fits " + out, "is the same file as the input " + in);
  }
  EXPECT_TRUE(bytes_of(in) == original) << "the input was replaced";

  // A run's inputs: its config, a map (FILE and FILE:DATASET), its frames, its wisdom.
  const std::string config = write_text(dir + "/run.toml", "[run]\nsamples = 16\n");
  const std::string frames = write_text(dir + "/frames.csv", "Z4\n0.1\n0.2\n");
  const std::string npy = dir + "/opd.npy";
  write_npy(npy, {16, 16}, std::vector<double>(256, 0.01));
  const std::string h5map = dir + "/maps.h5";
  write_h5(h5map, "opd", {16, 16}, std::vector<double>(256, 0.01));
  const std::string wisdom = dir + "/wisdom";
  // A measured plan, which is what a wisdom file keeps (one PSF alone is planned by estimate).
  ASSERT_EQ(run_psfsim("run --backend cpu --samples 16 --quiet --fft-effort measure --wisdom " +
                       wisdom + " -o " + dir + "/w.h5")
                .exit_code,
            0);
  ASSERT_TRUE(fs::exists(wisdom));
  const std::string run = "run --backend cpu --samples 16 --quiet --fft-effort estimate ";
  const struct {
    std::string args, input, option;
  } cases[] = {
      {"-c " + config + " --wisdom none", config, "--config"},
      {"--pupil-opd " + npy + " --wisdom none", npy, "--pupil-opd"},
      {"--pupil-amplitude " + h5map + ":opd --wisdom none", h5map, "--pupil-amplitude"},
      {"--frames " + frames + " --wisdom none", frames, "--frames"},
      {"--wisdom " + wisdom, wisdom, "--wisdom"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    const std::string before = bytes_of(c.input);
    expect_one_line_error(run_psfsim(run + c.args + " --force -o " + c.input), 2,
                          "--output " + c.input, "is the same file as " + c.option);
    EXPECT_TRUE(bytes_of(c.input) == before) << "the input was replaced";
  }
  expect_one_line_error(run_psfsim("-c " + config +
                                   " sweep --backends cpu --sizes 16 --repeat 1 --quiet "
                                   "--force -o " +
                                   config),
                        2, "--output " + config, "is the same file as --config");
  EXPECT_FALSE(has_partial(dir));
}

// The partial's name passed 255 bytes for an output name of 244.
TEST(OutputSafety, ALongLegalNameWorksForEveryCommand) {
  const std::string dir = fresh_dir("safety-long");
  const std::string run_name = std::string(247, 'r') + ".h5";
  const std::string sweep_name = std::string(247, 's') + ".h5";
  const std::string fits_name = std::string(250, 'f') + ".fits";
  auto r = run_psfsim(small_run + " -o " + dir + "/" + run_name);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  r = run_psfsim("sweep --backends cpu --sizes 16 --repeat 1 --quiet -o " + dir + "/" + sweep_name);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  r = run_psfsim("export " + dir + "/" + run_name + " --fits " + dir + "/" + fits_name);
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  std::vector<std::string> expected{fits_name, run_name, sweep_name};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(folder_entries(dir), expected);
}

// It printed "filesystem error: status: File name too long [...]".
TEST(OutputSafety, ANameNoFileSystemTakesIsOneLineNamingTheOption) {
  const std::string dir = fresh_dir("safety-too-long");
  const std::string out = dir + "/" + std::string(300, 'x') + ".h5";
  const std::string folder = dir + "/" + std::string(256, 'd') + "/x.h5";
  for (const std::string& path : {out, folder}) {
    SCOPED_TRACE(path.substr(dir.size(), 20));
    expect_one_line_error(run_psfsim(small_run + " -o " + path), 2, "--output " + path,
                          "at most 255");
    expect_one_line_error(
        run_psfsim("sweep --backends cpu --sizes 16 --repeat 1 --quiet -o " + path), 2,
        "--output " + path, "at most 255");
    expect_one_line_error(run_psfsim("export " + export_input() + " --fits " + path), 2,
                          "--fits " + path, "at most 255");
  }
  EXPECT_TRUE(folder_entries(dir).empty());
}

TEST(OutputSafety, PartialNamesFitAndStayRecognizable) {
  const std::string tag = host_name() + "-4194304";
  const std::string suffix = ".partial-" + tag;
  for (std::size_t n = 1; n <= 255; ++n) {
    const std::string name(n, 'a');
    const std::string partial = partial_file_name(name, tag);
    ASSERT_LE(partial.size(), 255u) << n;
    ASSERT_EQ(partial.front(), '.');
    ASSERT_EQ(partial.compare(partial.size() - suffix.size(), suffix.size(), suffix), 0) << n;
    if (1 + n + suffix.size() <= 255) {
      EXPECT_EQ(partial, "." + name + suffix);
    }
  }
  // Long names that differ only past the cut get different partials.
  const std::string a = std::string(240, 'n') + "-a.h5";
  const std::string b = std::string(240, 'n') + "-b.h5";
  EXPECT_NE(partial_file_name(a, tag), partial_file_name(b, tag));
  // The cut never splits a UTF-8 character (two bytes each here).
  std::string accents;
  for (int i = 0; i < 127; ++i) accents += "\xc3\xa9";
  const std::string cut = partial_file_name(accents, tag);
  const std::string kept = cut.substr(1, cut.find('~') - 1);
  EXPECT_EQ(kept.size() % 2, 0u);
  EXPECT_EQ(kept, accents.substr(0, kept.size()));

  // A shortened partial of a process that is gone is stale; ours is not.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);
  const std::string dir = fresh_dir("safety-stale-long");
  const std::string dead = partial_file_name(a, host_name() + "-" + std::to_string(child));
  const std::string live = partial_file_name(b, process_tag());
  write_text(dir + "/" + dead, "dead");
  write_text(dir + "/" + live, "live");
  remove_stale_partials(dir + "/x.h5");
  EXPECT_EQ(folder_entries(dir), std::vector<std::string>{live});
}

// psfsim (shell words `args`) with a file-size limit of zero, its stderr through a pipe,
// which the limit does not cover.
CommandResult run_with_no_file_size(const std::string& args) {
  int ends[2];
  if (::pipe(ends) != 0) return {};
  const pid_t child = ::fork();
  if (child == 0) {
    ::dup2(ends[1], STDERR_FILENO);
    ::close(ends[0]);
    ::close(ends[1]);
    const rlimit none{0, RLIM_INFINITY};
    ::setrlimit(RLIMIT_FSIZE, &none);
    const std::string command = "exec " + std::string(PSFSIM_BINARY) + " " + args + " >&2";
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(ends[1]);
  CommandResult r;
  char buffer[4096];
  for (ssize_t n; (n = ::read(ends[0], buffer, sizeof buffer)) > 0;)
    r.stderr_text.append(buffer, static_cast<std::size_t>(n));
  ::close(ends[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// HDF5 and CFITSIO fail on their first write: the partial they had created (0 bytes) stayed
// behind (until the next command in that folder removed it: checked after each).
TEST(OutputSafety, APartialThatCouldNotBeWrittenIsRemoved) {
  const std::string dir = fresh_dir("safety-efbig");
  const std::string in = dir + "/in.h5";
  ASSERT_EQ(run_psfsim(small_run + " -o " + in).exit_code, 0);
  const struct {
    std::string args, out;
  } cases[] = {
      {small_run + " -o " + dir + "/r.h5", dir + "/r.h5"},
      {"sweep --backends cpu --sizes 16 --repeat 1 --quiet -o " + dir + "/s.h5", dir + "/s.h5"},
      {"export " + in + " --fits " + dir + "/e.fits", dir + "/e.fits"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args);
    expect_one_line_error(run_with_no_file_size(c.args), 3, c.out, "File too large");
    EXPECT_EQ(folder_entries(dir), std::vector<std::string>{"in.h5"});
  }
}

TEST(OutputSafety, RenameWithoutReplacingByHardLinkWhereRenameat2IsMissing) {
  const std::string dir = fresh_dir("safety-link-fallback");
  write_text(dir + "/from", "new");
  write_text(dir + "/taken", "other");
  const OutputFolder folder(dir + "/x");
  for (const bool renameat2 : {true, false}) {
    SCOPED_TRACE(renameat2 ? "renameat2" : "link");
    errno = 0;
    EXPECT_FALSE(rename_without_replacing(folder.fd(), "from", "taken", renameat2));
    EXPECT_EQ(errno, EEXIST);
    EXPECT_EQ(bytes_of(dir + "/taken"), "other");
    EXPECT_EQ(bytes_of(dir + "/from"), "new");
  }
  EXPECT_TRUE(rename_without_replacing(folder.fd(), "from", "placed", false));
  EXPECT_EQ(folder_entries(dir), (std::vector<std::string>{"placed", "taken"}));
  EXPECT_EQ(bytes_of(dir + "/placed"), "new");
}

// ---- Runs caught mid-write

// A run of about a second alone, writing `target`.
std::vector<std::string> slow_run(const std::string& target, bool force) {
  std::vector<std::string> args{"run",           "--backend",    "cpu",      "--threads", "1",
                                "--samples",     "64",           "--crop",   "8",         "--vary",
                                "Z4,-1,1,20000", "--fft-effort", "estimate", "--wisdom",  "none",
                                "--quiet",       "-o",           target};
  if (force) args.push_back("--force");
  return args;
}

// Starts the slow run and stops it (SIGSTOP) while its partial file exists and the target
// does not: whatever is done next happens between its start and its commit. A run that
// ended before it could be stopped is started again.
Running stopped_mid_run(const std::string& target, bool force, const std::string& logs) {
  const fs::path t(target);
  for (int attempt = 0; attempt < 3; ++attempt) {
    const Running run = start_psfsim(slow_run(target, force), logs);
    const std::string partial =
        (t.parent_path() /
         partial_file_name(t.filename().native(), host_name() + "-" + std::to_string(run.pid)))
            .string();
    const bool seen = wait_for_file(partial, run.pid);
    if (seen && ::kill(run.pid, SIGSTOP) == 0) {
      int status = 0;
      EXPECT_EQ(::waitpid(run.pid, &status, WUNTRACED), run.pid);
      if (WIFSTOPPED(status) && fs::exists(partial) && !fs::exists(target)) return run;
      ::kill(run.pid, SIGCONT);
    }
    (void)wait_exit(run.pid, std::chrono::seconds(60));
    fs::remove(target);
  }
  ADD_FAILURE() << "the run always finished before it could be stopped";
  return {};
}

int continue_and_wait(const Running& run) {
  ::kill(run.pid, SIGCONT);
  return wait_exit(run.pid, std::chrono::seconds(120));
}

ino_t inode_of(const std::string& path) {
  struct stat s {};
  return ::lstat(path.c_str(), &s) == 0 ? s.st_ino : 0;
}

// Two runs started together both said "wrote same.h5": the later rename replaced the other.
TEST(OutputSafety, WithoutForceAFileThatAppearedDuringTheRunIsKept) {
  const std::string dir = fresh_dir("safety-clobber");
  const std::string logs = fresh_dir("safety-clobber-logs");
  const std::string out = dir + "/same.h5";
  const Running first = stopped_mid_run(out, false, logs);
  ASSERT_GT(first.pid, 0);
  const auto second = run_psfsim(small_run + " -o " + out);
  ASSERT_EQ(second.exit_code, 0) << second.stderr_text;
  const std::string theirs = bytes_of(out);
  const ino_t inode = inode_of(out);
  EXPECT_EQ(continue_and_wait(first), 3);
  const std::string err = read_text(first.stderr_path);
  EXPECT_EQ(err.rfind("psfsim: error: " + out +
                          ": another file took this name during the run "
                          "and was kept",
                      0),
            0u)
      << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_TRUE(bytes_of(out) == theirs) << "the other run's file was replaced";
  EXPECT_EQ(inode_of(out), inode);
  EXPECT_EQ(folder_entries(dir), std::vector<std::string>{"same.h5"});
}

TEST(OutputSafety, WithForceTheLastWriterWinsAtomically) {
  const std::string dir = fresh_dir("safety-force");
  const std::string logs = fresh_dir("safety-force-logs");
  const std::string out = dir + "/same.h5";
  const Running first = stopped_mid_run(out, true, logs);
  ASSERT_GT(first.pid, 0);
  const auto second = run_psfsim(small_run + " -o " + out);
  ASSERT_EQ(second.exit_code, 0) << second.stderr_text;
  const auto small = fs::file_size(out);
  const ino_t inode = inode_of(out);
  EXPECT_EQ(continue_and_wait(first), 0) << read_text(first.stderr_path);
  EXPECT_NE(inode_of(out), inode);
  EXPECT_GT(fs::file_size(out), small);  // 20000 frames, not the other run's one
  EXPECT_EQ(folder_entries(dir), std::vector<std::string>{"same.h5"});
}

TEST(OutputSafety, WithForceAFifoOrLinkThatAppearedDuringTheRunIsKept) {
  const std::string dir = fresh_dir("safety-force-fifo");
  const std::string logs = fresh_dir("safety-force-fifo-logs");
  const std::string out = dir + "/out.h5";
  write_text(dir + "/target.txt", "keep me");
  for (const std::string kind : {"a FIFO", "a symbolic link"}) {
    SCOPED_TRACE(kind);
    const Running run = stopped_mid_run(out, true, logs);
    ASSERT_GT(run.pid, 0);
    if (kind == "a FIFO") ASSERT_EQ(::mkfifo(out.c_str(), 0644), 0);
    else fs::create_symlink("target.txt", out);
    const mode_t type = entry_type(out);
    EXPECT_EQ(continue_and_wait(run), 3);
    const std::string err = read_text(run.stderr_path);
    EXPECT_EQ(
        err.rfind("psfsim: error: " + out + ": " + kind + " took this name during the run", 0), 0u)
        << err;
    EXPECT_EQ(entry_type(out), type);
    EXPECT_EQ(folder_entries(dir), (std::vector<std::string>{"out.h5", "target.txt"}));
    fs::remove(out);
  }
  EXPECT_EQ(bytes_of(dir + "/target.txt"), "keep me");
}

// The partial stayed in a folder renamed during the run: renamed and removed by path, it was
// no longer found.
TEST(OutputSafety, AFolderRenamedDuringTheRunGetsTheFileAndNoPartial) {
  const std::string base = fresh_dir("safety-moved");
  const std::string logs = fresh_dir("safety-moved-logs");
  fs::create_directory(base + "/before");
  const Running run = stopped_mid_run(base + "/before/out.h5", false, logs);
  ASSERT_GT(run.pid, 0);
  fs::rename(base + "/before", base + "/after");
  EXPECT_EQ(continue_and_wait(run), 0) << read_text(run.stderr_path);
  EXPECT_EQ(folder_entries(base), std::vector<std::string>{"after"});
  EXPECT_EQ(folder_entries(base + "/after"), std::vector<std::string>{"out.h5"});
  EXPECT_TRUE(is_hdf5(base + "/after/out.h5"));
}

TEST(OutputSafety, AFolderRenamedDuringTheRunLosesThePartialToAStopSignal) {
  const std::string base = fresh_dir("safety-moved-signal");
  const std::string logs = fresh_dir("safety-moved-signal-logs");
  fs::create_directory(base + "/before");
  const Running run = stopped_mid_run(base + "/before/out.h5", false, logs);
  ASSERT_GT(run.pid, 0);
  fs::rename(base + "/before", base + "/after");
  ASSERT_EQ(::kill(run.pid, SIGTERM), 0);  // delivered once the run continues
  EXPECT_EQ(continue_and_wait(run), 128 + SIGTERM);
  const std::string err = read_text(run.stderr_path);
  EXPECT_NE(err.find("the partial output file was removed"), std::string::npos) << err;
  EXPECT_TRUE(fs::is_empty(base + "/after"));
}

// `psfsim sweep ... | head` died of SIGPIPE (exit 141) before writing its file. A pipe
// whose reader is gone before psfsim starts fails its first write, every time.
TEST(OutputSafety, AClosedPipeOnStdoutLosesNothing) {
  const std::string dir = fresh_dir("safety-pipe");
  const std::string logs = fresh_dir("safety-pipe-logs");
  for (const std::string command : {"run", "sweep"}) {
    SCOPED_TRACE(command);
    int ends[2];
    ASSERT_EQ(::pipe(ends), 0);
    ::close(ends[0]);
    const std::string out = dir + "/" + command + ".h5";
    const std::vector<std::string> args =
        command == "run"
            ? std::vector<std::string>{"run",  "--backend",    "cpu",      "--samples",
                                       "16",   "--fft-effort", "estimate", "--wisdom",
                                       "none", "-o",           out}
            : std::vector<std::string>{"sweep",    "--backends", "cpu", "--sizes", "16,32",
                                       "--repeat", "1",          "-o",  out};
    const Running r = start_psfsim(args, logs, ends[1]);
    ::close(ends[1]);
    EXPECT_EQ(wait_exit(r.pid, std::chrono::seconds(120)), 0) << read_text(r.stderr_path);
    EXPECT_TRUE(is_hdf5(out));
    EXPECT_EQ(read_text(r.stderr_path), "");
  }
  EXPECT_EQ(folder_entries(dir), (std::vector<std::string>{"run.h5", "sweep.h5"}));
}

}  // namespace
}  // namespace psfsim::test

#pragma once
// psfsim started in the background, for tests that act on a run while it works (signals, a
// second process, a folder renamed under it).
#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace psfsim::test {

struct Running {
  pid_t pid = -1;
  std::string stderr_path;
};

// Starts psfsim with `args`: stdin and stdout /dev/null (stdout `stdout_fd` where given),
// stderr to `log_dir`/stderr.txt, SIGPIPE at its default action.
[[nodiscard]] Running start_psfsim(const std::vector<std::string>& args, const std::string& log_dir,
                                   int stdout_fd = -1);

// Exit status, or -1 when it died of a signal or outlived the timeout (then it is killed).
[[nodiscard]] int wait_exit(pid_t pid, std::chrono::seconds timeout);

// Waits until `path` exists and is not empty; false when the process ended first.
[[nodiscard]] bool wait_for_file(const std::string& path, pid_t pid);

[[nodiscard]] std::string read_text(const std::string& path);
[[nodiscard]] std::string host_name();

}  // namespace psfsim::test

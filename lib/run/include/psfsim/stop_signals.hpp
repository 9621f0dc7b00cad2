#pragma once
// SIGINT, SIGTERM and SIGHUP end psfsim at once (docs/spec.md §8): the handler removes every
// partial
// output file registered below, prints one line and exits with 128 + the signal. Exiting
// from the handler, rather than unwinding, bounds the delay by nothing: a chunk of a large
// FFT or an FFTW planning pass can take seconds, a signal never waits for one.
#include <string_view>

namespace psfsim {

// Installs the handlers once per process. Also ignores SIGXFSZ, so that a write past a file
// size limit fails with EFBIG ("File too large") instead of killing the process, and
// SIGPIPE, so that a closed pipe on stdout or stderr (`psfsim sweep | head`) fails only
// those writes: the run goes on and its file is written.
void install_stop_handlers();

// Removes the file `name` of the folder open as `folder_fd` when a stop signal arrives (by
// unlinkat, so a folder renamed meanwhile still loses it), until the guard is destroyed or
// released. `folder_fd` must stay open as long as the guard holds. At most a few partial
// files are open at once; more, or a name longer than a file name can be, throws
// std::length_error.
class PartialFileGuard {
 public:
  PartialFileGuard(int folder_fd, std::string_view name);
  PartialFileGuard(const PartialFileGuard&) = delete;
  PartialFileGuard& operator=(const PartialFileGuard&) = delete;
  ~PartialFileGuard() { release(); }
  // The file now has the name `name` in the same folder. A signal during the change removes
  // neither name: never the other name before the rename that makes it ours.
  void rename(std::string_view name);
  // The file is no longer partial (kept in place) or no longer exists.
  void release() noexcept;

 private:
  int slot_ = -1;
};

}  // namespace psfsim

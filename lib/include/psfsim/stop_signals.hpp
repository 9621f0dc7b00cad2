#pragma once
// SIGINT, SIGTERM and SIGHUP end psfsim at once (SPEC §8): the handler removes every partial
// output file registered below, prints one line and exits with 128 + the signal. Exiting
// from the handler, rather than unwinding, bounds the delay by nothing: a chunk of a large
// FFT or an FFTW planning pass can take seconds, a signal never waits for one.
#include <filesystem>

namespace psfsim {

// Installs the handlers once per process; also ignores SIGXFSZ, so that a write past a file
// size limit fails with EFBIG ("File too large") instead of killing the process.
void install_stop_handlers();

// Removes `path` when a stop signal arrives, until the guard is destroyed or released. At
// most a few partial files are open at once; more throws std::length_error.
class PartialFileGuard {
 public:
  explicit PartialFileGuard(const std::filesystem::path& path);
  PartialFileGuard(const PartialFileGuard&) = delete;
  PartialFileGuard& operator=(const PartialFileGuard&) = delete;
  ~PartialFileGuard() { release(); }
  // The file is no longer partial (renamed into place) or no longer exists.
  void release() noexcept;

 private:
  int slot_ = -1;
};

}  // namespace psfsim

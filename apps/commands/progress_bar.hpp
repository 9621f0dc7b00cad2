#pragma once
// A one-line progress report on stderr for long runs: only on a terminal, only once a run
// has taken about a second, and never with --quiet.
#include <chrono>
#include <cstddef>

namespace psfsim::app {

class ProgressBar {
 public:
  ProgressBar(std::size_t total_frames, bool enabled);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar();
  void update(std::size_t frames_done);
  // Ends the line, so that what is printed next starts on its own.
  void finish();

 private:
  std::size_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace psfsim::app

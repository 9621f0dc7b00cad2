#include "progress_bar.hpp"

#include <unistd.h>

#include <cstdio>

namespace psfsim::app {

ProgressBar::ProgressBar(std::size_t total_frames, bool enabled)
    : total_(total_frames),
      enabled_(enabled && ::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::finish() {
  if (drawn_) std::fputc('\n', stderr);
  drawn_ = false;
  enabled_ = false;
}

void ProgressBar::update(std::size_t done) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double since_draw = std::chrono::duration<double>(now - last_draw_).count();
  if (elapsed < 1.0 || (since_draw < 0.1 && done < total_)) return;
  last_draw_ = now;
  drawn_ = true;
  const double rate = done / elapsed;
  const double left = rate > 0 ? (total_ - done) / rate : 0.0;
  constexpr int width = 30;
  const int filled = static_cast<int>(width * static_cast<double>(done) / total_);
  char bar[width + 1];
  for (int i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '.';
  bar[width] = '\0';
  std::fprintf(stderr, "\r[%s] %zu/%zu frames  %.0f PSFs/s  %.0f s left   ", bar, done, total_,
               rate, left);
  std::fflush(stderr);
}

}  // namespace psfsim::app

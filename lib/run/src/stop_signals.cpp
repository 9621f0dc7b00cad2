#include "psfsim/stop_signals.hpp"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>

namespace psfsim {
namespace {

// Fixed storage, so that the handler reads it without allocating or locking.
struct Slot {
  std::atomic<int> state{0};  // 0 free, 1 being written, 2 registered
  int folder = -1;
  char name[NAME_MAX + 1] = {};
};
constexpr int slot_count = 8;
Slot slots[slot_count];
// A terminal may hold a progress line to end first; a file or pipe gets just the line.
bool stderr_is_terminal = false;

void write_text(const char* text) {
  const std::size_t n = std::strlen(text);
  ssize_t ignored = ::write(STDERR_FILENO, text, n);
  (void)ignored;
}

extern "C" void on_stop_signal(int sig) {
  bool removed = false;
  for (Slot& s : slots)
    if (s.state.load(std::memory_order_acquire) == 2)
      removed |= ::unlinkat(s.folder, s.name, 0) == 0;
  const char* name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
  if (stderr_is_terminal) write_text("\n");
  write_text("psfsim: error: stopped by ");
  write_text(name);
  write_text(removed ? "; the partial output file was removed\n" : "; nothing was written\n");
  ::_exit(128 + sig);
}

void store_name(Slot& slot, std::string_view name) {
  std::memcpy(slot.name, name.data(), name.size());
  slot.name[name.size()] = '\0';
}

void check_name(std::string_view name) {
  if (name.empty() || name.size() > NAME_MAX)
    throw std::length_error("partial file name of " + std::to_string(name.size()) + " bytes");
}

}  // namespace

void install_stop_handlers() {
  static const bool installed = [] {
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
      sigaddset(&action.sa_mask, sig);  // one handler at a time
    }
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &action, nullptr);
    signal(SIGXFSZ, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    stderr_is_terminal = ::isatty(STDERR_FILENO) == 1;
    return true;
  }();
  (void)installed;
}

PartialFileGuard::PartialFileGuard(int folder_fd, std::string_view name) {
  check_name(name);
  for (int i = 0; i < slot_count; ++i) {
    int expected = 0;
    if (slots[i].state.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
      slots[i].folder = folder_fd;
      store_name(slots[i], name);
      slots[i].state.store(2, std::memory_order_release);
      slot_ = i;
      return;
    }
  }
  throw std::length_error("more than 8 partial files open at once");
}

void PartialFileGuard::rename(std::string_view name) {
  check_name(name);
  if (slot_ < 0) return;
  slots[slot_].state.store(1, std::memory_order_release);  // the handler skips it meanwhile
  store_name(slots[slot_], name);
  slots[slot_].state.store(2, std::memory_order_release);
}

void PartialFileGuard::release() noexcept {
  if (slot_ >= 0) slots[slot_].state.store(0, std::memory_order_release);
  slot_ = -1;
}

}  // namespace psfsim

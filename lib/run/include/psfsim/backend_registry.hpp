#pragma once
// Backends chosen by name at run time. Each backend target exposes only its entry; the
// composition root (backends/, builtin_backends()) adds them, so lib/ depends on none.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "psfsim/backend.hpp"

namespace psfsim {

struct BackendEntry {
  std::string name;
  std::string summary;  // one line for --help: "FFTW on the CPU cores"
  // False for a name the build knows but does not contain (it says why when asked).
  bool compiled = true;
  // Empty when usable; otherwise why not ("no CUDA device: ...").
  std::function<std::string()> unusable_reason;
  std::function<std::unique_ptr<Backend>(const PsfPlan&)> create;
  // Lines for `psfsim info` (devices, library versions).
  std::function<std::vector<std::string>()> describe;
  // Optional: starts device `device`'s runtime (a GPU's driver and context, 0.2-0.4 s) so
  // that a later create() finds it ready; safe on any thread, failures left to create().
  std::function<void(int device)> prepare;
  // Optional: how many devices this process sees (0 when none or unknown).
  std::function<int()> device_count;
};

class BackendRegistry {
 public:
  void add(BackendEntry entry);
  [[nodiscard]] const std::vector<BackendEntry>& entries() const noexcept { return entries_; }
  [[nodiscard]] const BackendEntry* find(const std::string& name) const noexcept;
  // "auto" picks the first usable entry in registration order (GPU before CPU).
  // Throws RuntimeFailure when the named backend is not compiled in or is unusable.
  [[nodiscard]] const BackendEntry& resolve(const std::string& name) const;
  // resolve() without asking a named backend whether it is usable, which can take as long as
  // starting it (a CUDA driver: 0.1-0.2 s); "auto" still asks, to choose.
  [[nodiscard]] const BackendEntry& select(const std::string& name) const;
  // Throws RuntimeFailure ("--backend NAME: why") when `entry` cannot be used here.
  static void require_usable(const BackendEntry& entry);
  [[nodiscard]] std::vector<std::string> names() const;
  // "cpu: FFTW on ...; cuda: ...", for the --backend and --backends help text.
  [[nodiscard]] std::string summaries() const;

 private:
  std::vector<BackendEntry> entries_;
};

}  // namespace psfsim

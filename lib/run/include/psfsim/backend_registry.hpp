#pragma once
// Backends chosen by name at run time, and told apart only by what their entries say of
// them: where they compute, what each propagation costs them, what starting them costs, and
// what the process must set up for them. Each backend target exposes only its entry; the
// composition root (backends/, builtin_backends()) adds them, so lib/ depends on none and
// never compares a backend's name.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "psfsim/backend.hpp"
#include "psfsim/enums.hpp"

namespace psfsim {

// Where a backend computes. A host backend keeps the process's cores busy itself, so the run
// compiles the phases on one thread and keeps each call's frames small; a device leaves the
// cores to the run, takes one device index (--device) per process, and keeps larger calls
// where no frame crosses the bus.
enum class ComputeSite { host, device };

// One frame's propagation as --propagation auto weighs it: N pupil samples across, the FFT's
// M x M plane and the K x K frame.
struct PropagationWork {
  int samples = 0;
  int padded = 0;
  int frame = 0;
  int frames = 0;  // per backend call; 0: calls too large for their fixed costs to matter
};

// What each propagation of one frame costs a backend, in the backend's own unit: the two
// compare with each other, never with another backend's.
struct PropagationCosts {
  double fft = 0.0;
  double mft = 0.0;
  // Calls of at most this many frames take the FFT whatever the two costs say: the MFT's
  // fixed cost a call outweighs what its frames save (0: none; the CUDA backend's products).
  int fft_up_to_frames = 0;
  [[nodiscard]] bool fft_for_call(int frames) const noexcept {
    return frames > 0 && frames <= fft_up_to_frames;
  }
};

// A whole run as --backend auto weighs it: `propagations` of one frame's work (frames x
// wavelengths x repeats), and the frames it stores, each `frame_bytes`, which a device
// sends over its bus.
struct RunWork {
  PropagationWork frame;                             // padded 0: only the MFT applies
  Propagation propagation = Propagation::automatic;  // as --propagation asked
  double propagations = 1.0;
  double stored_frames = 1.0;
  double frame_bytes = 0.0;
};

struct BackendEntry {
  std::string name;     // what --backend and /timings call it; only its backend compares it
  std::string summary;  // one line for --help: "FFTW on the CPU cores"
  // False for a name the build knows but does not contain (it says why when asked).
  bool compiled = true;
  // Empty when usable; otherwise why not ("no CUDA device: ...").
  std::function<std::string()> unusable_reason;
  std::function<std::unique_ptr<Backend>(const PsfPlan&)> create;
  // Lines for `psfsim info` (devices, library versions).
  std::function<std::vector<std::string>()> describe;
  ComputeSite site = ComputeSite::host;  // where it computes (above)
  // The backend's cost model for --propagation auto, where the FFT applies (faster_propagation
  // below takes the cheaper); empty: the FFT.
  std::function<PropagationCosts(const PropagationWork&)> propagation_costs;
  // Seconds the first create() in a process spends starting the backend's runtime before any
  // work (a GPU's driver and context); 0 where nothing starts. Where it is more than 0, a run
  // that names this backend has `prepare` start it while the frames are defined.
  double start_up_seconds = 0.0;
  // Seconds the backend's work on `work` takes once it has started, by its cost model, in
  // seconds that compare across backends (--backend auto adds start_up_seconds and takes
  // the least). Empty: auto weighs its start-up alone.
  std::function<double(const RunWork&)> run_seconds;
  // Optional: starts device `device`'s runtime so that a later create() finds it ready; safe
  // on any thread, failures left to create().
  std::function<void(int device)> prepare;
  // Optional: how many devices this process sees (0 when none or unknown).
  std::function<int()> device_count;
  // Optional: what the process must set up before any thread starts (the environment that
  // the backend's libraries read as they load; setenv is not thread-safe).
  std::function<void()> set_up_process;
};

// One frame's cost in `costs`' unit for the propagation `work` will take: the one asked,
// the MFT where the FFT does not apply, else the cheaper (as faster_propagation chooses).
[[nodiscard]] double propagation_cost(const PropagationCosts& costs, const RunWork& work);

// --propagation auto where the FFT applies: the cheaper of the FFT and the MFT by `entry`'s
// cost model, the FFT on a tie or where the entry has none.
[[nodiscard]] Propagation faster_propagation(const BackendEntry& entry,
                                             const PropagationWork& work);

// What --backend resolved to, and for auto why: "auto: cpu (estimated 0.2 ms; cuda 0.40 s
// with its start-up)". `reason` is empty for a backend named.
struct BackendChoice {
  const BackendEntry* entry = nullptr;
  std::string reason;
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
  // select() for a run of `work`: "auto" takes the usable entry of the least estimated
  // wall time, start-up plus run_seconds, asking the entries in the order of their
  // estimates, so that a backend that cannot win is never started, not even to ask whether
  // it is usable.
  [[nodiscard]] BackendChoice choose(const std::string& name, const RunWork& work) const;
  // Throws RuntimeFailure ("--backend NAME: why") when `entry` cannot be used here.
  static void require_usable(const BackendEntry& entry);
  [[nodiscard]] std::vector<std::string> names() const;
  // "cpu: FFTW on ...; cuda: ...", for the --backend and --backends help text.
  [[nodiscard]] std::string summaries() const;
  // Every compiled entry's set_up_process, in registration order: once, before any thread.
  void set_up_process() const;
  // The devices the process sees, as the first compiled device entry that can count them
  // says (0 when none can).
  [[nodiscard]] int device_count() const;

 private:
  std::vector<BackendEntry> entries_;
};

}  // namespace psfsim

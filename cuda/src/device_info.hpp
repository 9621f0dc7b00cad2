#pragma once
// What the registry and `psfsim info` ask of the CUDA installation.
#include <string>
#include <vector>

#include "psfsim/psf_plan.hpp"

namespace psfsim::cuda {

// Empty when at least one device is usable, otherwise "no CUDA device: <why>".
[[nodiscard]] std::string unusable_reason();
// Driver, runtime and cuFFT versions, then one line per device (or why there is none).
[[nodiscard]] std::vector<std::string> describe_installation();

// Checks the plan's sizes, makes its device current and returns the device's name.
// InputError for sizes no launch can take or a device index out of range.
[[nodiscard]] std::string open_device(const PsfPlan& plan);
void select_device(int device);

// Gives the calling thread back the current device it had, at the end of a scope that selects
// another: a caller in the same process (CuPy, PyTorch on that thread) keeps its own.
class CurrentDeviceKept {
 public:
  CurrentDeviceKept() noexcept;
  CurrentDeviceKept(const CurrentDeviceKept&) = delete;
  CurrentDeviceKept& operator=(const CurrentDeviceKept&) = delete;
  ~CurrentDeviceKept();

 private:
  int previous_ = -1;
};

}  // namespace psfsim::cuda

#pragma once
// Errors carry the exit code of docs/spec.md §2 so that only main() decides how to leave.
#include <stdexcept>
#include <string>

namespace psfsim {

enum class ExitCode : int { ok = 0, bad_input = 2, runtime_failure = 3 };

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  [[nodiscard]] ExitCode code() const noexcept { return code_; }

 private:
  ExitCode code_;
};

// Bad input: usage, configuration, validation (exit 2).
class InputError : public Error {
 public:
  explicit InputError(const std::string& what) : Error(ExitCode::bad_input, what) {}
};

// The request was valid but the machine could not carry it out: backend, device, I/O (exit 3).
class RuntimeFailure : public Error {
 public:
  explicit RuntimeFailure(const std::string& what) : Error(ExitCode::runtime_failure, what) {}
};

}  // namespace psfsim

#pragma once
// The effective configuration of a run as TOML, in the form `psfsim run -c` reads back.
#include <string>

#include "psfsim/run_spec.hpp"

namespace psfsim {

[[nodiscard]] std::string to_toml(const RunSpec& spec);
// POSIX-shell quoting of argv, for the command_line attribute.
[[nodiscard]] std::string quote_command_line(int argc, const char* const* argv);

}  // namespace psfsim

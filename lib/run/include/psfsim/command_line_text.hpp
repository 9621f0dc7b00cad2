#pragma once
// The command line as a file's root attribute `command_line` records it.
#include <string>

namespace psfsim {

// POSIX-shell quoting of argv: the line a shell splits back into the same arguments.
[[nodiscard]] std::string quote_command_line(int argc, const char* const* argv);

}  // namespace psfsim

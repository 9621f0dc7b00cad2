#pragma once
// Keyword arguments as `psfsim run` reads them. The Python layer writes each keyword as the
// command line's --name=value (psfsim/_keywords.py); the very CLI definition that parses
// `psfsim run` (apps/cli) then parses and validates them, so that a keyword takes exactly
// what its option takes and fails with its option's message, the option named as the keyword.
#include <memory>
#include <string>
#include <vector>

#include "psfsim/run_spec.hpp"

namespace psfsim::python {

struct ParsedRun {
  RunSpec spec;
  std::vector<std::string> configs;  // the config files read
  std::string command_line;          // the equivalent `psfsim run`, as the file records it
};

// `arguments` are `psfsim run`'s ("--samples=128", "--quiet"); `config` is a TOML file whose
// [run] table they override ("" for none). Throws InputError in the keywords' words.
[[nodiscard]] ParsedRun parse_run(const std::vector<std::string>& arguments,
                                  const std::string& config);

// A message with each option named as its keyword: "--ee-radii" becomes "ee_radii".
[[nodiscard]] std::string in_keywords(const std::string& message);

}  // namespace psfsim::python

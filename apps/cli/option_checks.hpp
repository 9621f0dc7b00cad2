#pragma once
// The check CLI11 runs on an option's values, made from the option table: integers within
// the option's bounds, finite numbers, seeds and choices, in psfsim's words
// (psfsim::check_value). The number checks are given with ->transform(), not ->check(): they
// leave the text in the one form CLI11 converts as psfsim reads it ("010" is ten, not CLI11's
// octal eight).
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "psfsim/option_table.hpp"

namespace psfsim::app {

// One value's check (one item's, for a list), against `choices` for a choice or a backend:
// "'12.5' must be an integer from 2 to 16384". A choice's check shows its words in the help
// as CLI11's IsMember did: TEXT:{a,b}.
[[nodiscard]] CLI::Validator value_check(const OptionInfo& option,
                                         std::vector<std::string> choices);

}  // namespace psfsim::app

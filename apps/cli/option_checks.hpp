#pragma once
// The checks an option's text passes before CLI11 converts it, in psfsim's words: integers
// within the option's real bounds, finite numbers, seeds and choices. Each check is named,
// so the config reader asks an option which kind of TOML value it takes (value_kind). The
// number checks are given with ->transform(), not ->check(): they leave the text in the one
// form CLI11 converts as psfsim reads it ("010" is ten, not CLI11's octal eight).
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace psfsim::app {

// An integer from `lowest` to `highest`: "'12.5' must be an integer from 2 to 16384".
[[nodiscard]] CLI::Validator integer_in(long long lowest, long long highest);
// A finite number; its bounds are the run's to check, where the message can print it.
[[nodiscard]] CLI::Validator finite_number();
// A seed: decimal digits, 0 to 2^64 - 1.
[[nodiscard]] CLI::Validator seed_digits();
// One of `choices`; the help shows them as CLI11's IsMember did: TEXT:{a,b}.
[[nodiscard]] CLI::Validator one_of(std::vector<std::string> choices);

// The TOML value an option's config key takes (its items', for a list option).
enum class ValueKind { flag, integer, number, seed, text };
[[nodiscard]] ValueKind value_kind(CLI::Option& option);

}  // namespace psfsim::app

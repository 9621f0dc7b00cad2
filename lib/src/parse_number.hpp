#pragma once
// Strict number parsing for comma-separated option values: the whole field must be a
// finite number, so "1.0x", "nan" and "" are all rejected.
#include <optional>
#include <string_view>

namespace psfsim::detail {

[[nodiscard]] std::optional<double> parse_finite_double(std::string_view text);
[[nodiscard]] std::optional<long long> parse_integer(std::string_view text);
[[nodiscard]] std::string_view trim(std::string_view text);

}  // namespace psfsim::detail

#pragma once
// Numbers and fields as text, one home for each: strict parsing of option fields, the
// shortest round-trip form of a double, comma splitting and TOML string quoting.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace psfsim {

// The whole field must be a finite number, so "1.0x", "nan" and "" are all rejected.
[[nodiscard]] std::optional<double> parse_finite_double(std::string_view text);
[[nodiscard]] std::optional<long long> parse_integer(std::string_view text);
[[nodiscard]] std::string_view trim(std::string_view text);
// Fields between separators, each trimmed of spaces and tabs; "" gives one empty field.
[[nodiscard]] std::vector<std::string_view> split_fields(std::string_view text, char sep = ',');

// Shortest text that reads back to the same double: "0.1", not "0.10000000000000001".
[[nodiscard]] std::string format_number(double value);
// Two significant digits, for a computed bound or sum in a message: "3.4e+38", "2.7e-06".
[[nodiscard]] std::string format_two_digits(double value);
// Each with format_number, separated by commas: "0.5,1,1.22".
[[nodiscard]] std::string format_number_list(const std::vector<double>& values);
// A TOML basic string: quoted, with backslash, quote and control characters escaped.
[[nodiscard]] std::string toml_string(std::string_view text);

}  // namespace psfsim

#pragma once
// Numbers and fields as text, one home for each: strict parsing of option fields, the
// shortest round-trip form of a double, comma splitting, TOML string quoting, and user text
// made safe to print.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace psfsim {

// The whole field must be a finite number, so "1.0x", "nan" and "" are all rejected.
[[nodiscard]] std::optional<double> parse_finite_double(std::string_view text);
[[nodiscard]] std::optional<long long> parse_integer(std::string_view text);
// A seed: decimal digits only (no sign, exponent or fraction), 0 to 2^64 - 1 = max_seed.
inline constexpr std::uint64_t max_seed = UINT64_MAX;
[[nodiscard]] std::optional<std::uint64_t> parse_seed(std::string_view text);
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

// `text` as one line that shows what it holds and cannot steer a terminal: control
// characters, bytes that are not UTF-8, and the invisible Unicode characters that hide or
// reorder text (C1 controls, bidirectional overrides, zero-width characters, the byte-order
// mark) become \n, \t, \r, \xNN or \u{NNNN}; printable UTF-8 ("µm") stays as it is.
[[nodiscard]] std::string printable(std::string_view text);
// The length of the multi-byte UTF-8 sequence `text` starts with, its code point in `code`;
// 0 where it starts with none: an ASCII byte, a stray continuation byte, an overlong form,
// a surrogate, beyond U+10FFFF, or a sequence cut short.
[[nodiscard]] std::size_t utf8_code_point(std::string_view text, char32_t& code);
// `text` without a leading UTF-8 byte-order mark (EF BB BF), which Excel's "CSV UTF-8" and
// some editors write at the start of a file.
[[nodiscard]] std::string_view without_bom(std::string_view text);

}  // namespace psfsim

#include "option_checks.hpp"

#include <string_view>

#include "psfsim/text_fields.hpp"

namespace psfsim::app {
namespace {

constexpr std::string_view integer_check = "integer";
constexpr std::string_view number_check = "number";
constexpr std::string_view seed_check = "seed";

std::string in_quotes(const std::string& text) { return "'" + text + "'"; }

bool has_check(CLI::Option& option, std::string_view name) {
  try {
    (void)option.get_validator(std::string(name));
    return true;
  } catch (const CLI::OptionNotFound&) {
    return false;
  }
}

}  // namespace

CLI::Validator integer_in(long long lowest, long long highest) {
  return CLI::Validator(
      [lowest, highest](std::string& text) {
        const auto value = parse_integer(text);
        if (!value || *value < lowest || *value > highest)
          return in_quotes(text) + " must be an integer from " + std::to_string(lowest) + " to " +
                 std::to_string(highest);
        text = std::to_string(*value);
        return std::string();
      },
      "", std::string(integer_check));
}

CLI::Validator finite_number() {
  return CLI::Validator(
      [](std::string& text) {
        const auto value = parse_finite_double(text);
        if (!value) return in_quotes(text) + " is not a finite number";
        text = format_number(*value);
        return std::string();
      },
      "", std::string(number_check));
}

CLI::Validator seed_digits() {
  return CLI::Validator(
      [](std::string& text) {
        const auto value = parse_seed(text);
        if (!value)
          return in_quotes(text) + " must be a decimal integer from 0 to " +
                 std::to_string(max_seed);
        text = std::to_string(*value);
        return std::string();
      },
      "", std::string(seed_check));
}

CLI::Validator one_of(std::vector<std::string> choices) {
  std::string listed;
  for (const std::string& c : choices) listed += (listed.empty() ? "" : ", ") + c;
  const std::string shown = "{" + CLI::detail::join(choices, ",") + "}";
  return CLI::Validator(
      [choices = std::move(choices), listed](std::string& text) {
        for (const std::string& c : choices)
          if (text == c) return std::string();
        return in_quotes(text) + " is not one of " + listed;
      },
      shown, "choice");
}

ValueKind value_kind(CLI::Option& option) {
  if (option.get_expected_max() == 0) return ValueKind::flag;
  if (has_check(option, integer_check)) return ValueKind::integer;
  if (has_check(option, number_check)) return ValueKind::number;
  if (has_check(option, seed_check)) return ValueKind::seed;
  return ValueKind::text;
}

}  // namespace psfsim::app

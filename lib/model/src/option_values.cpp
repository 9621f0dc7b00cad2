#include <string>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {
namespace {

std::string in_quotes(const std::string& text) { return "'" + text + "'"; }

}  // namespace

std::string check_value(const OptionInfo& o, std::string& text,
                        std::span<const std::string> choices) {
  switch (o.grammar) {
    case Grammar::integer: {
      const auto value = parse_integer(text);
      if (!value || *value < o.lowest || *value > o.highest)
        return in_quotes(text) + " must be an integer from " + std::to_string(o.lowest) + " to " +
               std::to_string(o.highest);
      text = std::to_string(*value);
      return "";
    }
    case Grammar::number: {
      const auto value = parse_finite_double(text);
      if (!value) return in_quotes(text) + " is not a finite number";
      text = format_number(*value);
      return "";
    }
    case Grammar::seed: {
      const auto value = parse_seed(text);
      if (!value)
        return in_quotes(text) + " must be a decimal integer from 0 to " + std::to_string(max_seed);
      text = std::to_string(*value);
      return "";
    }
    case Grammar::choice:
    case Grammar::backend: {
      std::string listed;
      for (const std::string& c : choices) {
        if (text == c) return "";
        listed += (listed.empty() ? "" : ", ") + c;
      }
      return in_quotes(text) + " is not one of " + listed;
    }
    case Grammar::flag:
    case Grammar::text: break;
  }
  return "";
}

void check_bounds(Option id, long long value) {
  const OptionInfo& o = option(id);
  if (value < o.lowest || value > o.highest)
    throw InputError(flag(id) + " " + std::to_string(value) + ": must be between " +
                     std::to_string(o.lowest) + " and " + std::to_string(o.highest));
}

}  // namespace psfsim

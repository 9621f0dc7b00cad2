#include "option_checks.hpp"

#include <utility>

namespace psfsim::app {

CLI::Validator value_check(const OptionInfo& option, std::vector<std::string> choices) {
  const bool words = option.grammar == Grammar::choice || option.grammar == Grammar::backend;
  const std::string shown = words ? "{" + CLI::detail::join(choices, ",") + "}" : "";
  return CLI::Validator([&option, choices = std::move(choices)](
                            std::string& text) { return check_value(option, text, choices); },
                        shown, std::string(option.name));
}

}  // namespace psfsim::app

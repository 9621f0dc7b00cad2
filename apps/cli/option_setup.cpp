#include "option_setup.hpp"

#include <CLI/CLI.hpp>

#include <stdexcept>

#include "option_checks.hpp"
#include "psfsim/builtin_backends.hpp"

namespace psfsim::app {
namespace {

// Adds one option, as a flag or an option taking values of its member's type.
struct AddBound {
  CLI::App& app;
  const OptionInfo& option;
  std::string names;
  std::string help;

  CLI::Option* operator()(std::monostate) const {
    throw std::logic_error("the option " + flag(option.id) + " is bound to no member");
  }
  CLI::Option* operator()(bool* member) const { return app.add_flag(names, *member, help); }
  template <typename Member>
  CLI::Option* operator()(Member* member) const {
    return app.add_option(names, *member, help);
  }
};

}  // namespace

std::string cli_names(const OptionInfo& o) {
  if (o.positional) return std::string(o.name);
  const std::string long_name = "--" + std::string(o.name);
  return o.short_name != '\0' ? std::string("-") + o.short_name + "," + long_name : long_name;
}

const BackendNames& build_backends() {
  static const BackendNames names{builtin_backends().names(), builtin_backends().summaries()};
  return names;
}

void add_options(CLI::App& app, Command command, const OptionBindings& bindings) {
  for (const Option id : options_of(command)) {
    const OptionInfo& o = option(id);
    CLI::Option* op = std::visit(AddBound{app, o, cli_names(o), help_text(o, build_backends())},
                                 bindings.target(id));
    if (o.grammar == Grammar::flag) continue;
    if (const std::string value = value_text(o, build_backends()); !value.empty())
      op->type_name(value);
    if (o.arity == Arity::list) op->delimiter(',');
    switch (o.grammar) {
      case Grammar::integer:
      case Grammar::number:
      case Grammar::seed: op->transform(value_check(o, {})); break;
      case Grammar::choice:
      case Grammar::backend: op->check(value_check(o, choices_of(o, build_backends()))); break;
      case Grammar::flag:
      case Grammar::text: break;
    }
    if (!o.shown_default.empty()) op->default_str(std::string(o.shown_default));
    if (o.required) op->required();
  }
}

}  // namespace psfsim::app

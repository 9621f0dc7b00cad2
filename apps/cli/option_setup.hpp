#pragma once
// The CLI11 options of a command, made from the option table (psfsim/option_table.hpp): names,
// help, value names, checks and the defaults the help shows all come from its rows, and the
// table's list for the command gives the options and the order --help lists them in. What
// the command adds is where each value goes: a binding of each option to a member of its
// option structs.
#include "cli_forward.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "psfsim/option_table.hpp"

namespace psfsim::app {

// The member an option fills, of one of the types CLI11 converts for psfsim's options.
using OptionTarget =
    std::variant<std::monostate, bool*, int*, double*, std::string*, std::optional<int>*,
                 std::optional<double>*, std::optional<std::uint64_t>*, std::vector<int>*,
                 std::vector<std::string>*>;

class OptionBindings {
 public:
  template <typename T>
  void bind(Option id, T& member) {
    targets_[static_cast<std::size_t>(id)] = &member;
  }
  [[nodiscard]] const OptionTarget& target(Option id) const {
    return targets_[static_cast<std::size_t>(id)];
  }

 private:
  std::array<OptionTarget, option_count> targets_{};
};

// Adds the command's options to `app` in the table's order, each filling its bound member;
// an option without a binding is a programming error (std::logic_error).
void add_options(CLI::App& app, Command command, const OptionBindings& bindings);

// The names CLI11 takes for an option: "-o,--output", "--samples", "input".
[[nodiscard]] std::string cli_names(const OptionInfo& option);

// The backends of this build, as the table's help and choices name them.
[[nodiscard]] const BackendNames& build_backends();

}  // namespace psfsim::app

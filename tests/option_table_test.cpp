// The option table (lib/include/psfsim/option_table.hpp) against what is made from it: the
// command line lists each command's options in the table's order with the table's defaults,
// the option structs start at those defaults, the help's default lists are the library's,
// and values are checked and messages name options in psfsim's words.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/option_setup.hpp"
#include "psfsim/metrics.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim::test {
namespace {

struct Listed {
  Command command;
  CLI::App* app;
};

std::vector<Listed> commands(app::CommandLine& cli) {
  return {{Command::run, cli.run},
          {Command::sweep, cli.sweep},
          {Command::export_fits, cli.export_fits}};
}

TEST(OptionTable, EachCommandHasTheTablesOptionsInItsOrder) {
  const auto cli = app::make_command_line();
  for (const Listed& c : commands(*cli)) {
    SCOPED_TRACE(c.app->get_name());
    std::vector<std::string> names;
    for (const CLI::Option* op : c.app->get_options())
      if (op->get_name() != "--help") names.push_back(op->get_name(false, true));
    std::vector<std::string> want;
    for (const Option id : options_of(c.command)) want.push_back(app::cli_names(option(id)));
    EXPECT_EQ(names, want);
  }
}

// The help shows the table's defaults; the structs the options fill must start there.
TEST(OptionTable, TheOptionStructsStartAtTheDefaultsTheHelpShows) {
  const auto cli = app::make_command_line();
  int checked = 0;
  for (const Listed& c : commands(*cli))
    for (const Option id : options_of(c.command)) {
      const OptionInfo& o = option(id);
      if (o.shown_default.empty()) continue;
      CLI::Option* op = c.app->get_option(app::cli_names(o));
      EXPECT_EQ(op->get_default_str(), o.shown_default);
      op->capture_default_str();  // from the member, as CLI11 alone would show it
      EXPECT_EQ(op->get_default_str(), o.shown_default) << c.app->get_name() << " " << flag(id);
      ++checked;
    }
  EXPECT_GE(checked, 20);
}

TEST(OptionTable, TheHelpsDefaultListsAreTheLibrarys) {
  const BackendNames none;
  EXPECT_NE(help_text(option(Option::ee_radii), none)
                .find("(default " + format_number_list(default_ee_radii) + ")"),
            std::string::npos);
  EXPECT_NE(help_text(option(Option::mtf_frequencies), none)
                .find("(default " + format_number_list(default_mtf_frequencies) + ")"),
            std::string::npos);
}

TEST(OptionTable, OptionsAreNamedByTheTable) {
  EXPECT_EQ(flag(Option::ee_radii), "--ee-radii");
  EXPECT_EQ(key(Option::ee_radii), "ee-radii");
  EXPECT_EQ(flag(Option::sweep_crop), "--crop");
  EXPECT_EQ(flag(Option::export_input), "input");
  EXPECT_EQ(keyword(Option::ee_radii), "ee_radii");
  EXPECT_EQ(to_string(option(Option::noise_seed).grammar), "seed");
  ASSERT_NE(find_option(Command::run, "pad-factor"), nullptr);
  EXPECT_EQ(find_option(Command::run, "pad-factor")->id, Option::pad_factor);
  EXPECT_EQ(find_option(Command::sweep, "pad-factor")->id, Option::sweep_pad_factor);
  EXPECT_EQ(find_option(Command::run, "sizes"), nullptr);
  EXPECT_EQ(find_option(Command::run, "config"), nullptr);  // the main app's
  for (const OptionInfo& o : all_options()) EXPECT_EQ(&option(o.id), &o);
}

TEST(OptionTable, TheBackendsFillTheirHelpAndChoices) {
  const BackendNames backends{{"cuda", "cpu"}, "cuda: a GPU; cpu: the cores"};
  EXPECT_EQ(help_text(option(Option::backend), backends),
            "cuda: a GPU; cpu: the cores; auto: the usable one whose start-up plus estimated "
            "work is the least (a Python Simulator: the first usable of cuda, then cpu)");
  EXPECT_EQ(choices_of(option(Option::backend), backends),
            (std::vector<std::string>{"cuda", "cpu", "auto"}));
  EXPECT_EQ(choices_of(option(Option::backends), backends),
            (std::vector<std::string>{"cuda", "cpu"}));
  EXPECT_EQ(value_text(option(Option::backends), backends), "cuda,cpu");
  EXPECT_EQ(value_text(option(Option::samples), backends), "N");
}

TEST(OptionTable, ValuesAreCheckedAndWrittenInTheOneFormPsfsimReads) {
  const auto checked = [](Option id, std::string text, std::vector<std::string> choices = {}) {
    const std::string why = check_value(option(id), text, choices);
    return why.empty() ? "ok " + text : why;
  };
  EXPECT_EQ(checked(Option::samples, "12.5"), "'12.5' must be an integer from 2 to 16384");
  EXPECT_EQ(checked(Option::samples, "010"), "ok 10");
  EXPECT_EQ(checked(Option::batch, "0"), "'0' must be an integer from 1 to 1000000");
  EXPECT_EQ(checked(Option::obscuration, "2.50"), "ok 2.5");
  EXPECT_EQ(checked(Option::obscuration, "nan"), "'nan' is not a finite number");
  EXPECT_EQ(checked(Option::noise_seed, "-1"),
            "'-1' must be a decimal integer from 0 to 18446744073709551615");
  EXPECT_EQ(checked(Option::grid, "square", {"centered", "linspace"}),
            "'square' is not one of centered, linspace");
  EXPECT_EQ(checked(Option::grid, "linspace", {"centered", "linspace"}), "ok linspace");
  EXPECT_EQ(checked(Option::wavelength, "anything"), "ok anything");
}

}  // namespace
}  // namespace psfsim::test

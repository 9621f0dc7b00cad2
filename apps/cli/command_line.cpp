#include "command_line.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config_file.hpp"
#include "option_setup.hpp"
#include "psfsim/build_commit.hpp"
#include "psfsim/build_config.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"

namespace psfsim::app {
namespace {

int fail(ExitCode code, const std::string& message) {
  std::fprintf(stderr, "psfsim: error: %s\n", printable(message).c_str());
  return static_cast<int>(code);
}

// The help of a subcommand that reads its options from a config file's table: the main
// app's -c,--config is listed among the subcommand's own options (after -h,--help), with a
// description of its own. Only the help changes: parsing -c stays with the main app.
class WithConfigHelp final : public CLI::Formatter {
 public:
  WithConfigHelp(const CLI::Option* config, std::string description)
      : config_(config), description_(std::move(description)) {}

  std::string make_group(std::string group, bool is_positional,
                         std::vector<const CLI::Option*> opts) const override {
    if (!is_positional && group == "Options") {
      const auto help = std::find_if(opts.begin(), opts.end(),
                                     [](const CLI::Option* o) { return o->check_lname("help"); });
      opts.insert(help == opts.end() ? opts.begin() : help + 1, config_);
    }
    return CLI::Formatter::make_group(std::move(group), is_positional, std::move(opts));
  }
  std::string make_option_desc(const CLI::Option* opt) const override {
    return opt == config_ ? description_ : CLI::Formatter::make_option_desc(opt);
  }

 private:
  const CLI::Option* config_;
  std::string description_;
};

std::string config_help(const std::string& table, const std::string& example) {
  return "TOML config file whose [" + table +
         "] table sets these options: keys are the long "
         "names (" +
         example +
         "), lists are arrays or comma strings; the command line "
         "overrides the file";
}

}  // namespace

std::unique_ptr<CommandLine> make_command_line() {
  auto cli = std::make_unique<CommandLine>();
  CLI::App& app = cli->app;
  app.set_version_flag("--version",
                       std::string("psfsim ") + PSFSIM_VERSION + " (" + git_commit() + ")");
  // Config on the main app plus fallthrough() on the subcommands: `psfsim run -c f.toml`
  // then reads the [run] table (a config option on a subcommand is ignored by CLI11 2.1).
  const OptionInfo& config_option = option(Option::config);
  const CLI::Option* config =
      app.set_config(cli_names(config_option), "", std::string(config_option.help))
          ->type_name(std::string(config_option.value_name));
  auto reader = std::make_shared<ConfigFile>(app);
  cli->config_file = reader.get();
  app.config_formatter(reader);
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.require_subcommand(1);

  cli->run = app.add_subcommand("run", "Compute PSFs and write them with their timings");
  cli->run->fallthrough();
  cli->run->allow_config_extras(CLI::config_extras_mode::error);
  add_run_options(*cli->run, cli->run_options);
  cli->run->formatter(std::make_shared<WithConfigHelp>(
      config, config_help("run", "samples = 128, ee-radii = [1, 2]")));
  cli->run->footer(
      "Every option can also be set in a TOML config file read with psfsim run -c FILE: keys\n"
      "are the long option names in a [run] table (samples = 128, pad-factor = 3,\n"
      "zernike = [\"4,0.1\", \"11,0.05\"]; a list as an array or a comma string: ee-radii =\n"
      "[1, 2] or \"1,2\"); the command line overrides the file. Exit codes: 0 success, 2 bad\n"
      "input, 3 runtime failure (backend, device, I/O), 128 + N stopped by signal N (the\n"
      "partial file removed).");

  cli->sweep = app.add_subcommand(
      "sweep", "Time the pipeline over pupil sizes, batches, backends and precisions");
  cli->sweep->fallthrough();
  cli->sweep->allow_config_extras(CLI::config_extras_mode::error);
  add_sweep_options(*cli->sweep, cli->sweep_options);
  cli->sweep->formatter(std::make_shared<WithConfigHelp>(
      config, config_help("sweep", "sizes = [64, 128], repeat = 20")));

  cli->export_fits = app.add_subcommand(
      "export", "Write a psfsim file's /psf as FITS, its /parameters as a binary table");
  add_export_options(*cli->export_fits, cli->export_options);

  cli->info =
      app.add_subcommand("info", "Version, backends compiled in, devices found, library versions");
  cli->info->fallthrough();
  return cli;
}

namespace {

// "N" for --samples: the option's value as its help names it, without its choices.
std::string type_of(const CLI::Option* op) {
  const std::string type = op->get_type_name();
  return type.substr(0, type.find(':'));
}

// "--samples N": how an option is written, for "the value is missing".
std::string with_value(const CLI::Option* op, const std::string& name) {
  if (op == nullptr || op->get_expected_max() == 0) return name;
  return name + " " + type_of(op);
}

// Whether `arg` is meant as an option: a dash and a letter, not a negative number.
bool looks_like_option(const std::string& arg) {
  return arg.size() > 1 && arg[0] == '-' && !parse_finite_double(arg);
}

// `app` is the command the arguments were given to (their extras reach the main app).
std::string unexpected(const CLI::App& app, const std::vector<std::string>& extras) {
  const std::string command = app.get_parent() != nullptr ? "psfsim " + app.get_name() : "psfsim";
  const auto option = std::find_if(extras.begin(), extras.end(), looks_like_option);
  if (option != extras.end()) {
    const std::string name = option->substr(0, option->find('='));  // "-=x" leaves "-"
    const auto letters = name.find_first_not_of('-');
    const std::string near =
        letters == std::string::npos ? "" : nearest_option(app, name.substr(letters));
    return "unknown option '" + name + "' for " + command +
           (near.empty() ? "" : "; did you mean --" + near + "?") + " (" + command +
           " --help lists the options)";
  }
  const bool takes_positionals =
      !app.get_options([](const CLI::Option* o) { return o->get_positional(); }).empty();
  return "unexpected argument '" + extras.front() + "' for " + command + " (" +
         (takes_positionals ? "it takes one input file" : "it takes options only") + "; " +
         command + " --help)";
}

}  // namespace

std::string parse_error_message(CommandLine& cli, const CLI::ParseError& error, int argc,
                                const char* const* argv) {
  CLI::App& app = cli.app;
  const std::string what = error.what();
  const std::vector<CLI::App*> parsed = app.get_subcommands();
  CLI::App& command = parsed.empty() ? app : *parsed.front();
  const auto named = [&](std::size_t end) { return what.substr(0, std::min(end, what.size())); };

  if (dynamic_cast<const CLI::ConfigError*>(&error) != nullptr) return what;  // ours, whole
  if (dynamic_cast<const CLI::FileError*>(&error) != nullptr) {
    const std::string file = app.get_config_ptr()->as<std::string>();
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (status.type() == std::filesystem::file_type::directory)
      return flag(Option::config) + " " + file + ": a folder, not a config file";
    return flag(Option::config) + " " + file + ": no such file";
  }
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    if (parsed.empty()) {
      const std::string first = argc > 1 ? argv[1] : "";
      const std::string problem = first.empty() || first.front() == '-'
                                      ? std::string("a command is required")
                                      : "unknown command '" + first + "'";
      return problem + ": the commands are run, sweep, export and info (see psfsim --help)";
    }
    // "--fits is required (psfsim export IN.h5 --fits OUT.fits)"
    const std::string name = named(what.find(" is required"));
    const CLI::Option* op = command.get_option_no_throw(name);
    std::string usage = "psfsim " + command.get_name();
    for (const CLI::Option* o :
         command.get_options([](const CLI::Option* o) { return o->get_required(); }))
      usage += " " + (o->get_positional() ? type_of(o) : with_value(o, o->get_name()));
    return (op != nullptr && op->get_positional() ? "the input " + type_of(op) : name) +
           " is required (" + usage + ")";
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
    const std::string name = named(what.find_first_of(": "));
    const CLI::Option* op = command.get_option_no_throw(name);
    if (what.find(": At Most ") != std::string::npos) {
      const std::string received = what.substr(what.rfind(' ') + 1);
      return name + " given " + (received == "2" ? std::string("twice") : received + " times") +
             " (it takes one value)";
    }
    if (what.find(" missing") != std::string::npos || what.find(": At least ") != std::string::npos)
      return with_value(op, name) + ": the value is missing";
    return name + ": " + what.substr(std::min(name.size() + 2, what.size()));
  }
  if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr) {
    for (CLI::App* a : {&command, &app})
      if (a->remaining_size() > 0) return unexpected(command, a->remaining());
    return what;
  }
  if (dynamic_cast<const CLI::ConversionError*>(&error) != nullptr) {
    // "Could not convert: --force = bogus", "--force: too many inputs for a flag"
    constexpr std::string_view lead = "Could not convert: ";
    const bool converting = what.rfind(lead, 0) == 0;
    const std::string rest = converting ? what.substr(lead.size()) : what;
    const std::string name = rest.substr(0, rest.find_first_of(" :"));
    const CLI::Option* op = command.get_option_no_throw(name);
    const auto equals = rest.find(" = ");
    const std::string value = equals == std::string::npos ? "" : rest.substr(equals + 3);
    if (op != nullptr && op->get_expected_max() == 0)
      return name + " is a flag: give it alone, or as " + name + "=true or " + name + "=false" +
             (value.empty() ? "" : ", not '" + value + "'");
    return name + " '" + value + "': not a valid value";
  }
  return what;  // ValidationError: psfsim's checks, "--grid: 'square' is not one of ..."
}

namespace {

// CLI11 opens the config file itself, and a FIFO or a device would block it or feed it
// without end: only a regular file (or a folder, which CLI11 refuses) gets that far.
void refuse_special_config_files(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string file;
    if ((arg == "-c" || arg == "--config") && i + 1 < argc) file = argv[i + 1];
    else if (arg.rfind("--config=", 0) == 0) file = arg.substr(9);
    else if (arg.size() > 2 && arg.rfind("-c", 0) == 0 && arg[2] != '-') file = arg.substr(2);
    struct stat st {};
    if (file.empty() || ::stat(file.c_str(), &st) != 0) continue;
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
      throw CLI::ConfigError(flag(Option::config) + " " + file + ": is " +
                             (S_ISFIFO(st.st_mode)   ? "a FIFO"
                              : S_ISSOCK(st.st_mode) ? "a socket"
                                                     : "a device") +
                             ", not a config file (psfsim reads regular files only)");
  }
}

}  // namespace

void parse_command_line(CommandLine& cli, int argc, const char* const* argv) {
  refuse_special_config_files(argc, argv);
  cli.config_file->set_command_line_keys(long_option_names(argc, argv));
  cli.app.parse(argc, argv);
}

int parse_or_exit_code(CommandLine& cli, int argc, const char* const* argv) {
  CLI::App& app = cli.app;
  try {
    parse_command_line(cli, argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(ExitCode::bad_input, parse_error_message(cli, e, argc, argv));
  }
  return -1;
}

}  // namespace psfsim::app

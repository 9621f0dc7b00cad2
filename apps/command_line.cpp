#include "command_line.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "config_file.hpp"
#include "psfsim/build_config.hpp"
#include "psfsim/errors.hpp"

namespace psfsim::app {
namespace {

int fail(ExitCode code, const std::string& message) {
  std::fprintf(stderr, "psfsim: error: %s\n", message.c_str());
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
      const auto help = std::find_if(opts.begin(), opts.end(), [](const CLI::Option* o) {
        return o->check_lname("help");
      });
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
  return "TOML config file whose [" + table + "] table sets these options: keys are the long "
         "names (" + example + "), lists are arrays or comma strings; the command line "
         "overrides the file";
}

}  // namespace

std::unique_ptr<CommandLine> make_command_line() {
  auto cli = std::make_unique<CommandLine>();
  CLI::App& app = cli->app;
  app.set_version_flag("--version", std::string("psfsim ") + PSFSIM_VERSION + " (" +
                                        PSFSIM_GIT_COMMIT + ")");
  // Config on the main app plus fallthrough() on the subcommands: `psfsim run -c f.toml`
  // then reads the [run] table (a config option on a subcommand is ignored by CLI11 2.1).
  const CLI::Option* config =
      app.set_config("-c,--config", "",
                     "TOML config file; its [run] and [sweep] tables hold those commands' options")
          ->type_name("FILE");
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

  cli->info = app.add_subcommand(
      "info", "Version, backends compiled in, devices found, library versions");
  cli->info->fallthrough();
  return cli;
}

int parse_or_exit_code(CommandLine& cli, int argc, const char* const* argv) {
  CLI::App& app = cli.app;
  try {
    cli.config_file->set_command_line_keys(long_option_names(argc, argv));
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RequiredError& e) {
    if (app.get_subcommands().empty()) {
      const std::string first = argc > 1 ? argv[1] : "";
      const std::string what = first.empty() || first.front() == '-'
                                   ? std::string("a command is required")
                                   : "unknown command '" + first + "'";
      return fail(ExitCode::bad_input,
                  what + ": the commands are run, sweep, export and info (see psfsim --help)");
    }
    return fail(ExitCode::bad_input, e.what());
  } catch (const CLI::ConfigError& e) {
    const std::string file = app.get_config_ptr()->as<std::string>();
    return fail(ExitCode::bad_input, "config " + file + ": " + e.what());
  } catch (const CLI::FileError& e) {
    return fail(ExitCode::bad_input, std::string("--config: ") + e.what());
  } catch (const CLI::ParseError& e) {
    return fail(ExitCode::bad_input, e.what());
  }
  return -1;
}

}  // namespace psfsim::app

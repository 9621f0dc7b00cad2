#include "command_line.hpp"

#include <cstdio>

#include "psfsim/build_config.hpp"
#include "psfsim/errors.hpp"

namespace psfsim::app {
namespace {

int fail(ExitCode code, const std::string& message) {
  std::fprintf(stderr, "psfsim: error: %s\n", message.c_str());
  return static_cast<int>(code);
}

}  // namespace

std::unique_ptr<CommandLine> make_command_line() {
  auto cli = std::make_unique<CommandLine>();
  CLI::App& app = cli->app;
  app.set_version_flag("--version", std::string("psfsim ") + PSFSIM_VERSION + " (" +
                                        PSFSIM_GIT_COMMIT + ")");
  // Config on the main app plus fallthrough() on the subcommands: `psfsim run -c f.toml`
  // then reads the [run] table (a config option on a subcommand is ignored by CLI11 2.1).
  app.set_config("-c,--config", "",
                 "TOML config file; its [run] and [sweep] tables hold those commands' options")
      ->type_name("FILE");
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.require_subcommand(1);

  cli->run = app.add_subcommand("run", "Compute PSFs and write them with their timings");
  cli->run->fallthrough();
  cli->run->allow_config_extras(CLI::config_extras_mode::error);
  add_run_options(*cli->run, cli->run_options);
  cli->run->footer(
      "Every option can also be set in a TOML config file read with psfsim run -c FILE: keys\n"
      "are the long option names in a [run] table (samples = 128, pad-factor = 3,\n"
      "zernike = [\"4,0.1\", \"11,0.05\"]); the command line overrides the file. Exit codes:\n"
      "0 success, 2 bad input, 3 runtime failure (backend, device, I/O), 128 + N stopped by\n"
      "signal N (the partial file removed).");

  cli->sweep = app.add_subcommand(
      "sweep", "Time the pipeline over pupil sizes, batches, backends and precisions");
  cli->sweep->fallthrough();
  cli->sweep->allow_config_extras(CLI::config_extras_mode::error);
  add_sweep_options(*cli->sweep, cli->sweep_options);

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
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RequiredError& e) {
    if (app.get_subcommands().empty())
      return fail(ExitCode::bad_input,
                  "a command is required: run, sweep, export or info (see psfsim --help)");
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

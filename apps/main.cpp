// psfsim: optical point-spread functions from a pupil, on FFTW or cuFFT.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <new>

#include "info_command.hpp"
#include "psfsim/build_config.hpp"
#include "psfsim/config_text.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/stop_signals.hpp"
#include "run_command.hpp"
#include "run_options.hpp"
#include "sweep_command.hpp"

namespace {

int fail(psfsim::ExitCode code, const std::string& message) {
  std::fprintf(stderr, "psfsim: error: %s\n", message.c_str());
  return static_cast<int>(code);
}

}  // namespace

int main(int argc, char** argv) {
  using psfsim::ExitCode;
  psfsim::install_stop_handlers();
  CLI::App app{"psfsim: optical point-spread functions from a pupil, on FFTW (CPU) or cuFFT (GPU)",
               "psfsim"};
  app.set_version_flag("--version", std::string("psfsim ") + PSFSIM_VERSION + " (" +
                                        PSFSIM_GIT_COMMIT + ")");
  // Config on the main app plus fallthrough() on the subcommands: `psfsim run -c f.toml`
  // then reads the [run] table (a config option on a subcommand is ignored by CLI11 2.1).
  app.set_config("-c,--config", "", "TOML config file; its [run] and [sweep] tables hold those commands' options")
      ->type_name("FILE");
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.require_subcommand(1);

  psfsim::app::RunOptions run_options;
  CLI::App* run = app.add_subcommand("run", "Compute PSFs and write them with their timings");
  run->fallthrough();
  run->allow_config_extras(CLI::config_extras_mode::error);
  psfsim::app::add_run_options(*run, run_options);
  run->footer(
      "Every option can also be set in a TOML config file read with psfsim run -c FILE: keys\n"
      "are the long option names in a [run] table (samples = 128, pad-factor = 3,\n"
      "zernike = [\"4,0.1\", \"11,0.05\"]); the command line overrides the file. Exit codes:\n"
      "0 success, 2 bad input, 3 runtime failure (backend, device, I/O).");

  psfsim::app::SweepOptions sweep_options;
  CLI::App* sweep = app.add_subcommand(
      "sweep", "Time the pipeline over pupil sizes, batches, backends and precisions");
  sweep->fallthrough();
  sweep->allow_config_extras(CLI::config_extras_mode::error);
  psfsim::app::add_sweep_options(*sweep, sweep_options);

  CLI::App* info = app.add_subcommand(
      "info", "Version, backends compiled in, devices found, library versions");
  info->fallthrough();

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
      return fail(ExitCode::bad_input, "a command is required: run, sweep or info (see psfsim --help)");
    return fail(ExitCode::bad_input, e.what());
  } catch (const CLI::ConfigError& e) {
    const std::string file = app.get_config_ptr()->as<std::string>();
    return fail(ExitCode::bad_input, "config " + file + ": " + e.what());
  } catch (const CLI::FileError& e) {
    return fail(ExitCode::bad_input, std::string("--config: ") + e.what());
  } catch (const CLI::ParseError& e) {
    return fail(ExitCode::bad_input, e.what());
  }

  try {
    if (run->parsed()) {
      const psfsim::RunSpec spec = psfsim::app::to_run_spec(run_options);
      psfsim::app::execute_run(spec, psfsim::quote_command_line(argc, argv));
    } else if (sweep->parsed()) {
      psfsim::app::execute_sweep(sweep_options, psfsim::quote_command_line(argc, argv));
    } else if (info->parsed()) {
      psfsim::app::print_info();
    }
  } catch (const psfsim::Error& e) {
    return fail(e.code(), e.what());
  } catch (const std::bad_alloc&) {
    return fail(ExitCode::runtime_failure, "out of host memory");
  } catch (const std::exception& e) {
    return fail(ExitCode::runtime_failure, e.what());
  }
  return 0;
}

#pragma once
// psfsim's whole command line, defined once: the main app with its config option and the
// run, sweep, export and info subcommands with their options. main() parses argv with it; the
// fuzzer (fuzz/) parses arbitrary argument lists and config files with the very same definition.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "export_options.hpp"
#include "run_options.hpp"
#include "sweep_options.hpp"

namespace psfsim::app {

class ConfigFile;

struct CommandLine {
  CLI::App app{"psfsim: optical point-spread functions from a pupil, on FFTW (CPU) or cuFFT (GPU)",
               "psfsim"};
  RunOptions run_options;
  SweepOptions sweep_options;
  ExportOptions export_options;
  CLI::App* run = nullptr;
  CLI::App* sweep = nullptr;
  CLI::App* export_fits = nullptr;
  CLI::App* info = nullptr;
  ConfigFile* config_file = nullptr;  // the config reader, owned by `app`
};

[[nodiscard]] std::unique_ptr<CommandLine> make_command_line();

// Parses argv into `cli`: the config file's keys, then the command line's over them. Throws
// CLI11's errors (CLI::ParseError; CLI::CallForHelp and the like for --help and --version).
void parse_command_line(CommandLine& cli, int argc, const char* const* argv);

// Parses argv; on a parse error or a request for help or the version, returns the exit code
// to leave with (after printing), else -1.
[[nodiscard]] int parse_or_exit_code(CommandLine& cli, int argc, const char* const* argv);

// The line psfsim prints for a parse error of `argv` by `cli`, in psfsim's words: CLI11's
// ("At Most 1 required but received 2", "The following argument was not expected") are
// replaced by ones that name the option, its value and what it takes.
[[nodiscard]] std::string parse_error_message(CommandLine& cli, const CLI::ParseError& error,
                                              int argc, const char* const* argv);

}  // namespace psfsim::app

#pragma once
// The options of `psfsim export`, registered on a CLI11 subcommand as the option table
// (psfsim/option_table.hpp) declares them.
#include "cli_forward.hpp"

#include <string>

namespace psfsim::app {

struct ExportOptions {
  std::string input;
  std::string fits;
  bool force = false;
};

void add_export_options(CLI::App& app, ExportOptions& options);

}  // namespace psfsim::app

#pragma once
#include <CLI/CLI.hpp>

#include <string>

namespace psfsim::app {

struct ExportOptions {
  std::string input;
  std::string fits;
  bool force = false;
};

void add_export_options(CLI::App& app, ExportOptions& options);

// Writes the input's /psf and /parameters as FITS; prints one summary line to stdout.
void execute_export(const ExportOptions& options, const std::string& command_line);

}  // namespace psfsim::app

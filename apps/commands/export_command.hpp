#pragma once
#include <string>

#include "cli/export_options.hpp"

namespace psfsim::app {

// Writes the input's /psf and /parameters as FITS; prints one summary line to stdout.
void execute_export(const ExportOptions& options, const std::string& command_line);

}  // namespace psfsim::app

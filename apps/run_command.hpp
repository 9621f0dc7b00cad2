#pragma once
#include <string>

#include "psfsim/run_spec.hpp"

namespace psfsim::app {

// Computes the run and writes its file; prints a one-screen summary to stdout.
void execute_run(RunSpec spec, const std::string& command_line);

}  // namespace psfsim::app

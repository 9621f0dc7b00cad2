#pragma once
// `psfsim sweep`: time the pipeline over pupil sizes, batches, backends and precisions.
#include <string>
#include <vector>

#include "cli/sweep_options.hpp"

namespace psfsim::app {

// `config_files`: the -c files read, which the output must not replace.
void execute_sweep(const SweepOptions& options, const std::string& command_line,
                   const std::vector<std::string>& config_files);

}  // namespace psfsim::app

#pragma once
// `mpirun -n R psfsim run ...`: each rank computes its block of the batch into a file of its
// own beside the output, then rank 0 writes the output as virtual datasets over them
// (docs/scaling.md).
#include <string>
#include <vector>

#include "mpi_world.hpp"
#include "cli/run_options.hpp"

namespace psfsim::app {

// Every rank calls it with the same options. Input every rank finds wrong, before any work,
// is thrown by the lowest rank that found it and as a silent Error (empty message) by the
// others; a failure during the work removes the rank's files and aborts the whole job.
// `config_files`: the -c files read, which the output must not replace.
void execute_run_on_ranks(const RunOptions& options, const std::string& command_line,
                          const std::vector<std::string>& config_files, MpiWorld& world);

}  // namespace psfsim::app

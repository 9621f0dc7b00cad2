#pragma once
// `psfsim sweep`: time the pipeline over pupil sizes, batches, backends and precisions.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "cli/metrics_options.hpp"
#include "cli/pupil_options.hpp"

namespace psfsim::app {

struct SweepOptions {
  PupilOptions pupil;  // without terms: one wave of rho^2 cos(phi)
  MetricsOptions metrics;  // --metrics, --ee-radii, --mtf-frequencies, --store
  std::string output;
  bool force = false;
  std::vector<int> sizes{64, 128, 256, 512, 1024, 2048};
  double pad_factor = 2.0;
  std::vector<std::string> backends;  // empty: every compiled backend
  std::vector<std::string> precisions{"single"};
  std::vector<int> batch{1};
  int repeat = 20;
  std::vector<int> crops;               // K axis; empty: full frames
  std::vector<std::string> propagations{"auto"};
  bool quiet = false;
};

void add_sweep_options(CLI::App& sweep, SweepOptions& options);
// `config_files`: the -c files read, which the output must not replace.
void execute_sweep(const SweepOptions& options, const std::string& command_line,
                   const std::vector<std::string>& config_files);

}  // namespace psfsim::app

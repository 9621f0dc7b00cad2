#pragma once
// The options of `psfsim sweep`, registered on a CLI11 subcommand as the option table
// (psfsim/option_table.hpp) declares them, and the effective [sweep] table a sweep records.
#include "cli_forward.hpp"

#include <string>
#include <vector>

#include "metrics_options.hpp"
#include "pupil_options.hpp"

namespace psfsim::app {

// Raw values as CLI11 fills them; the initial values are the defaults the table's help shows.
struct SweepOptions {
  PupilOptions pupil;      // without terms: one wave of rho^2 cos(phi)
  MetricsOptions metrics;  // --metrics, --ee-radii, --mtf-frequencies, --store
  std::string output;
  bool force = false;
  std::vector<int> sizes{64, 128, 256, 512, 1024, 2048};
  double pad_factor = 2.0;
  std::vector<std::string> backends;  // empty: every compiled backend
  std::vector<std::string> precisions{"single"};
  std::vector<int> batch{1};
  int repeat = 20;
  std::vector<int> crops;  // K axis; empty: full frames
  std::vector<std::string> propagations{"auto"};
  bool quiet = false;
};

void add_sweep_options(CLI::App& sweep, SweepOptions& options);

// The effective [sweep] table, in the form `psfsim sweep -c` reads back; `backends` are the
// ones timed (the default list written out).
[[nodiscard]] std::string to_toml(const SweepOptions& options,
                                  const std::vector<std::string>& backends);

}  // namespace psfsim::app

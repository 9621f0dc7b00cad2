#pragma once
// The metric options of `psfsim run` (docs/spec.md §7): which per-frame metrics, at which radii and
// frequencies, and whether the file keeps frames, metrics or both. Each long name is also its
// key in the config file's [run] table.
#include <string>

#include "option_setup.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim::app {

// Raw values as CLI11 fills them.
struct MetricsOptions {
  std::string metrics;
  std::string ee_radii;
  std::string mtf_frequencies;
  std::string contrast_radii;
  std::string store;
};

void bind_options(MetricsOptions& options, OptionBindings& bindings);
// Fills spec.metrics; throws InputError naming the option.
void apply(const MetricsOptions& options, RunSpec& spec);

}  // namespace psfsim::app

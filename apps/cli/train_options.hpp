#pragma once
// The optical-train options of `psfsim run` (docs/coronagraphy.md): --coronagraph, --lyot-stop,
// --lyot-spiders, --mask-sampling and --plane. Each long name is also its config key; a config
// file's [[plane]] tables arrive as --plane values (config_file.cpp).
#include <optional>
#include <string>
#include <vector>

#include "option_setup.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim::app {

struct TrainOptions {
  std::string coronagraph;
  std::string lyot_stop;
  std::string lyot_spiders;
  double mask_sampling = default_mask_sampling;
  std::vector<std::string> planes;
};

void bind_options(TrainOptions& options, OptionBindings& bindings);
// Fills spec.train, reading a mask map's values. Throws InputError naming the option.
void apply(const TrainOptions& options, RunSpec& spec);

}  // namespace psfsim::app

#pragma once
// The aperture options of `psfsim run` (docs/spec.md §7): spiders, segmented hexagons and pupil
// maps from files. Each long name is also its key in the config file's [run] table.
#include <string>

#include "option_setup.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim::app {

// Raw values as CLI11 fills them.
struct ApertureOptions {
  std::string spiders;
  std::string hex_segments;
  std::string pupil_amplitude;
  std::string pupil_opd;
  std::string opd_units = "waves";
};

void bind_options(ApertureOptions& options, OptionBindings& bindings);
// Fills spec.aperture, after spec.frames: a stack of one map per frame makes the batch, so it
// refuses --vary, --random and --frames beside one. Throws InputError naming the option.
void apply(const ApertureOptions& options, RunSpec& spec);

}  // namespace psfsim::app

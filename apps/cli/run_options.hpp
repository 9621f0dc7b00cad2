#pragma once
// The options of `psfsim run` (docs/spec.md §2), registered on a CLI11 subcommand as the option
// table (psfsim/option_table.hpp) declares them. Each option's long name is also its key in
// the config file's [run] table.
#include "cli_forward.hpp"

#include <optional>
#include <string>
#include <vector>

#include "psfsim/run_spec.hpp"
#include "aperture_options.hpp"
#include "field_options.hpp"
#include "metrics_options.hpp"
#include "optics_options.hpp"
#include "pupil_options.hpp"
#include "train_options.hpp"

namespace psfsim::app {

// Raw values as CLI11 fills them; to_run_spec() turns them into a validated RunSpec. The
// initial values are the defaults the table's help shows (tests/option_table_test.cpp).
struct RunOptions {
  PupilOptions pupil;
  ApertureOptions aperture;
  OpticsOptions optics;
  MetricsOptions metrics;
  TrainOptions train;
  FieldOptions field;
  std::string output;
  bool force = false;
  std::string backend = "auto";
  std::string precision = "single";
  int samples = 128;
  std::optional<double> pad_factor;
  std::optional<int> padded_size;
  std::optional<int> crop;
  int repeat = 1;
  std::string vary;
  std::string random;
  std::string frames;
  bool quiet = false;
  int chunk_frames = 0;
  std::string compression = "none";
};

void add_run_options(CLI::App& run, RunOptions& options);
[[nodiscard]] RunSpec to_run_spec(const RunOptions& options);

}  // namespace psfsim::app

#pragma once
// The effective configuration of a run: its [run] table as TOML, every key that shapes the
// frames (defaults included), in the form `psfsim run -c` reads back (docs/cli.md). The file's
// root attribute `config` holds it.
#include <string>

#include "psfsim/run_spec.hpp"

namespace psfsim {

[[nodiscard]] std::string to_toml(const RunSpec& spec);

}  // namespace psfsim

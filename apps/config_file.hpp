#pragma once
// How psfsim reads its TOML config files: CLI11's TOML reader, plus arrays for the options
// whose value is a comma-separated list (`wavelengths = ["500nm:1", "600nm:2"]`,
// `ee-radii = [1, 2]`), joined with commas into the option's usual text; the repeatable
// options (`zernike`, `seidel`) and sweep's list options take an array as CLI11 does.
// An array for a key that takes one value is a CLI::ConfigError naming the table and key.
// An array may span lines (`key = [` alone on its line, comments inside).
#include <CLI/CLI.hpp>

#include <istream>
#include <string>
#include <vector>

namespace psfsim::app {

class ConfigFile final : public CLI::ConfigTOML {
 public:
  // `app` is the main app whose subcommands' tables the file holds; it must outlive this.
  explicit ConfigFile(const CLI::App& app) : app_(app) {}
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;

 private:
  const CLI::App& app_;
};

// True for the keys of single-value options whose value is a comma-separated list or tuple:
// a config array for them is joined with commas.
[[nodiscard]] bool takes_comma_list(const std::string& key);

}  // namespace psfsim::app

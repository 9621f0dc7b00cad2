#pragma once
// How psfsim reads its TOML config files: CLI11's TOML reader, plus arrays for the options
// whose value is a comma-separated list (`wavelengths = ["500nm:1", "600nm:2"]`,
// `ee-radii = [1, 2]`), joined with commas into the option's usual text; the repeatable
// options (`zernike`, `seidel`) and sweep's list options take an array as CLI11 does.
// An array for a key that takes one value is a CLI::ConfigError naming the table and key.
// An array may span lines (`key = [` alone on its line, comments inside).
#include <CLI/CLI.hpp>

#include <istream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace psfsim::app {

class ConfigFile final : public CLI::ConfigTOML {
 public:
  // `app` is the main app whose subcommands' tables the file holds; it must outlive this.
  explicit ConfigFile(const CLI::App& app) : app_(app) {}
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;

  // The long option names (without dashes) given on the command line, before parsing:
  // options that exclude each other (--pad-factor and --padded-size; --vary, --random and
  // --frames; --wavelengths and --band; --pixel-scale and --fnumber/--pixel-pitch, either
  // against --pad-factor/--padded-size) take the command line's side, the file's keys of
  // the other sides dropped, as the command line overrides the file.
  void set_command_line_keys(std::set<std::string> keys) { command_line_keys_ = std::move(keys); }

 private:
  [[nodiscard]] bool overridden(const std::string& key) const;

  const CLI::App& app_;
  std::set<std::string> command_line_keys_;
};

// The long option names of `argv` (`--pad-factor 3` and `--pad-factor=3` give "pad-factor").
[[nodiscard]] std::set<std::string> long_option_names(int argc, const char* const* argv);

// True for the keys of single-value options whose value is a comma-separated list or tuple:
// a config array for them is joined with commas.
[[nodiscard]] bool takes_comma_list(const std::string& key);

}  // namespace psfsim::app

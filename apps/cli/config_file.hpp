#pragma once
// How psfsim reads its config files: TOML 1.0 by toml++, turned into the items CLI11 gives
// its options, so that a key means what its option means on the command line. Keys are the
// long option names in the [run] and [sweep] tables; what each takes is the option table's
// (psfsim/option_table.hpp). A key's TOML type must be the option's
// (an integer for --samples, true or false for a flag, a string for text); an array is for
// a repeatable option (zernike, sizes) or for one whose value is a comma-separated list or
// tuple (wavelengths, ee-radii, spiders: its items joined with commas into the option's
// usual text). Each value passes its option's own checks here, so that every error is one
// CLI::ConfigError naming the file, the line and the key.
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
  explicit ConfigFile(CLI::App& app) : app_(app) {}
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;

  // The long option names (without dashes) given on the command line, before parsing:
  // options that exclude each other (--pad-factor and --padded-size; --vary, --random and
  // --frames; --wavelengths and --band; --pixel-scale and --fnumber/--pixel-pitch, either
  // against --pad-factor/--padded-size) take the command line's side, the file's keys of
  // the other sides dropped, as the command line overrides the file.
  void set_command_line_keys(std::set<std::string> keys) { command_line_keys_ = std::move(keys); }

 private:
  [[nodiscard]] bool overridden(const std::string& key) const;

  CLI::App& app_;
  std::set<std::string> command_line_keys_;
};

// The long option names of `argv` (`--pad-factor 3` and `--pad-factor=3` give "pad-factor").
[[nodiscard]] std::set<std::string> long_option_names(int argc, const char* const* argv);

// The long name of `app`'s option nearest to `name` (a typo's likely intent), or "".
[[nodiscard]] std::string nearest_option(const CLI::App& app, const std::string& name);

}  // namespace psfsim::app

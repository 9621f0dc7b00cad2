#include "config_file.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <sstream>
#include <string_view>

namespace psfsim::app {
namespace {

// Lists (wavelengths, metrics, radii, frequencies) and tuples (band, spiders, hex segments,
// a --vary or --random specification): an array's items joined with "," are the text the
// command line takes, so `spiders = [4, 0.01, 45]` is `spiders = "4,0.01,45"`.
constexpr std::array<std::string_view, 9> comma_list_keys{
    "wavelengths", "band",   "metrics", "ee-radii", "mtf-frequencies",
    "spiders",     "hex-segments", "vary", "random"};

// Keys whose values are numbers (or arrays of numbers): a TOML string there ("64") is a value
// of the wrong type, an error (SPEC §2), though CLI11 would convert it.
constexpr std::array<std::string_view, 17> number_keys{
    "samples", "pad-factor", "padded-size", "crop",       "repeat",   "threads",
    "device",  "obscuration", "chunk-frames", "photons",  "background", "read-noise",
    "noise-seed", "oversample", "fnumber",   "sizes",      "batch"};

// Options that exclude each other, in sides: a key of one side given on the command line
// drops the file's keys of the other sides.
using Side = std::vector<std::string_view>;
const std::vector<std::vector<Side>> exclusive_options{
    {{"pad-factor"}, {"padded-size"}},
    {{"vary"}, {"random"}, {"frames"}},
    {{"wavelengths"}, {"band"}},
    {{"pixel-scale"}, {"fnumber", "pixel-pitch"}},
    {{"pad-factor", "padded-size"}, {"pixel-scale", "fnumber", "pixel-pitch"}},
};

// The subcommand whose table holds `item`, or the main app; nullptr for an unknown table.
const CLI::App* table_of(const CLI::App& app, const CLI::ConfigItem& item) {
  const CLI::App* at = &app;
  for (const std::string& parent : item.parents) {
    const auto subs = at->get_subcommands(
        [&parent](const CLI::App* sub) { return sub->check_name(parent); });
    if (subs.empty()) return nullptr;
    at = subs.front();
  }
  return at;
}

// The option a key sets, looked up as CLI11 does.
const CLI::Option* option_of(const CLI::App& table, const std::string& key) {
  if (const CLI::Option* op = table.get_option_no_throw("--" + key)) return op;
  if (key.size() == 1)
    if (const CLI::Option* op = table.get_option_no_throw("-" + key)) return op;
  return table.get_option_no_throw(key);
}

// Brackets outside strings on `text`, added to `depth`; `end` is where a comment starts
// outside strings (text.size() without one).
int bracket_depth(const std::string& text, int depth, std::size_t& end) {
  char quote = '\0';
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != '\0') {
      if (c == '\\' && quote == '"') ++i;  // an escape in a basic string
      else if (c == quote) quote = '\0';
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '#') {
      end = i;
      return depth;
    } else if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    }
  }
  end = text.size();
  return depth;
}

// CLI11 2.1 reads an array over several lines only when an item follows `key = [` on its
// line, and keeps comments inside it: an array left open on its line is gathered here into
// one line, its comments dropped, so that
//   wavelengths = [
//     "500nm:1",  # blue
//     "600nm:2",
//   ]
// reads like `wavelengths = ["500nm:1", "600nm:2",]`.
std::string join_open_arrays(std::istream& input) {
  std::string out;
  std::string key;   // the key of the array being gathered
  std::string open;  // the array being gathered
  int depth = 0;
  for (std::string line; std::getline(input, line);) {
    std::size_t end = 0;
    if (depth > 0) {
      depth = bracket_depth(line, depth, end);
      open += " " + CLI::detail::trim_copy(line.substr(0, end));
      if (depth <= 0) out += open + "\n";
      continue;
    }
    const std::string trimmed = CLI::detail::trim_copy(line);
    const auto equals = trimmed.find('=');
    const auto value = equals == std::string::npos
                           ? std::string()
                           : CLI::detail::trim_copy(trimmed.substr(equals + 1));
    if (trimmed.empty() || trimmed.front() == '[' || trimmed.front() == '#' || value.empty() ||
        value.front() != '[' || (depth = bracket_depth(value, 0, end)) <= 0) {
      depth = 0;
      out += line + "\n";
      continue;
    }
    key = CLI::detail::trim_copy(trimmed.substr(0, equals));
    open = key + " = " + CLI::detail::trim_copy(value.substr(0, end));
  }
  if (depth > 0) throw CLI::ConfigError(key + ": an array without its closing ]");
  return out;
}

// The value text of every `key = value` line, by "table.key" ("run.samples"), its comment
// cut: what CLI11's reader unquotes, kept to check the value's TOML type.
std::map<std::string, std::string> raw_values(const std::string& text) {
  std::map<std::string, std::string> values;
  std::istringstream lines(text);
  std::string table;
  for (std::string line; std::getline(lines, line);) {
    const std::string trimmed = CLI::detail::trim_copy(line);
    if (trimmed.empty() || trimmed.front() == '#') continue;
    if (trimmed.front() == '[') {
      const auto close = trimmed.find(']');
      table = CLI::detail::trim_copy(trimmed.substr(1, close == std::string::npos ? 0 : close - 1));
      continue;
    }
    const auto equals = trimmed.find('=');
    if (equals == std::string::npos) continue;
    std::string value = trimmed.substr(equals + 1);
    std::size_t end = 0;
    (void)bracket_depth(value, 0, end);
    const std::string key = CLI::detail::trim_copy(trimmed.substr(0, equals));
    values[table.empty() ? key : table + "." + key] = CLI::detail::trim_copy(value.substr(0, end));
  }
  return values;
}

// The name of the item's table: "run" for [run], "" at the top level.
std::string table_name(const CLI::ConfigItem& item) { return CLI::detail::join(item.parents, "."); }

std::string where(const CLI::ConfigItem& item) {
  const std::string table = table_name(item);
  return table.empty() ? item.name : "[" + table + "] " + item.name;
}

}  // namespace

std::set<std::string> long_option_names(int argc, const char* const* argv) {
  std::set<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg == "--") break;  // positional arguments follow
    if (arg.size() > 2 && arg.substr(0, 2) == "--")
      names.emplace(arg.substr(2, arg.find('=') == std::string_view::npos ? std::string_view::npos
                                                                          : arg.find('=') - 2));
  }
  return names;
}

bool ConfigFile::overridden(const std::string& key) const {
  const auto given = [&](const Side& side) {
    return std::any_of(side.begin(), side.end(), [&](std::string_view k) {
      return command_line_keys_.count(std::string(k)) > 0;
    });
  };
  for (const auto& sides : exclusive_options)
    for (const Side& mine : sides) {
      if (std::find(mine.begin(), mine.end(), key) == mine.end() || given(mine)) continue;
      if (std::any_of(sides.begin(), sides.end(),
                      [&](const Side& other) { return &other != &mine && given(other); }))
        return true;
    }
  return false;
}

bool takes_comma_list(const std::string& key) {
  return std::find(comma_list_keys.begin(), comma_list_keys.end(), key) != comma_list_keys.end();
}

std::vector<CLI::ConfigItem> ConfigFile::from_config(std::istream& input) const {
  const std::string text = join_open_arrays(input);
  std::istringstream joined(text);
  std::vector<CLI::ConfigItem> items = CLI::ConfigTOML::from_config(joined);
  const std::map<std::string, std::string> raw = raw_values(text);
  std::erase_if(items, [&](const CLI::ConfigItem& item) { return overridden(item.name); });
  for (CLI::ConfigItem& item : items) {
    if (item.name == "++" || item.name == "--") continue;  // a table's start and end
    const CLI::App* table = table_of(app_, item);
    const CLI::Option* op = table ? option_of(*table, item.name) : nullptr;
    if (op == nullptr) continue;  // unknown keys and tables are CLI11's to refuse
    const std::string in = table_name(item);
    const auto value = raw.find(in.empty() ? item.name : in + "." + item.name);
    if (value != raw.end()) {
      const std::string& v = value->second;
      if (op->get_expected_max() == 0 && v != "true" && v != "false")  // a flag
        throw CLI::ConfigError(where(item) + ": takes true or false, not " + v);
      const bool number = std::find(number_keys.begin(), number_keys.end(), item.name) !=
                          number_keys.end();
      if (number && v.find_first_of("\"'") != std::string::npos)
        throw CLI::ConfigError(where(item) + ": takes a number, not the string " + v);
      if (!v.empty() && v.front() == '[' && op->get_items_expected_max() <= 1 &&
          !takes_comma_list(item.name))
        throw CLI::ConfigError(where(item) + ": takes one value, not the array " + v);
    }
    // Only `key = []` has no value (`key = ""` has an empty one); CLI11 would say
    // "At least 1 required" without the key's file.
    if (item.inputs.empty())
      throw CLI::ConfigError(where(item) + ": an empty array; leave the key out instead");
    // Repeatable and vector options (zernike, seidel, sweep's sizes ...) take every item
    // of an array as they are.
    if (op->get_items_expected_max() > 1 || item.inputs.size() == 1) continue;
    if (op->get_type_size() != 0 && takes_comma_list(item.name)) {
      item.inputs = {CLI::detail::join(item.inputs, ",")};
      continue;
    }
    throw CLI::ConfigError(where(item) + ": takes one value, not " +
                           std::to_string(item.inputs.size()) +
                           " (an array, or the key given twice); arrays are for lists such "
                           "as zernike, wavelengths or ee-radii");
  }
  return items;
}

}  // namespace psfsim::app

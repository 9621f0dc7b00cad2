#include "config_file.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>
#include <optional>
#include <string_view>

#include "option_setup.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim::app {
namespace {

// The subcommands whose options a config file sets, each in its table.
struct ConfigTableName {
  std::string_view name;
  Command command;
};
constexpr std::array<ConfigTableName, 2> config_tables{
    {{"run", Command::run}, {"sweep", Command::sweep}}};

// A config is a few hundred bytes; a file this large was given by mistake (or is /dev/zero).
constexpr std::size_t max_config_bytes = 1 << 20;

// Options that exclude each other, in sides: a key of one side given on the command line
// drops the file's keys of the other sides.
using Side = std::vector<Option>;
const std::vector<std::vector<Side>> exclusive_options{
    {{Option::pad_factor}, {Option::padded_size}},
    {{Option::vary}, {Option::random}, {Option::frames}, {Option::field_grid}},
    {{Option::field}, {Option::field_grid}},
    {{Option::wavelengths}, {Option::band}},
    {{Option::pixel_scale}, {Option::fnumber, Option::pixel_pitch}},
    {{Option::pad_factor, Option::padded_size},
     {Option::pixel_scale, Option::fnumber, Option::pixel_pitch}},
};

// The option a key sets, looked up as CLI11 does.
CLI::Option* option_of(CLI::App& table, const std::string& key) {
  if (CLI::Option* op = table.get_option_no_throw("--" + key)) return op;
  if (key.size() == 1)
    if (CLI::Option* op = table.get_option_no_throw("-" + key)) return op;
  return table.get_option_no_throw(key);
}

// What a key takes (its items, for a list), for the message that says it got something else.
std::string expected(Grammar grammar, bool comma_list) {
  switch (grammar) {
    case Grammar::flag: return "true or false";
    case Grammar::integer: return "an integer";
    case Grammar::number: return "a number";
    case Grammar::seed: return "an integer";
    case Grammar::choice:
    case Grammar::backend:
    case Grammar::text: break;
  }
  return comma_list ? "a string, numbers or an array of them" : "a string";
}

// The option's text for one TOML value, if its type is one the option takes. A comma-list
// key also takes numbers (`ee-radii = 1.5`, `spiders = [4, 0.01]`); a seed also takes its
// decimal digits as a string, as TOML's integers stop at 2^63 - 1.
std::optional<std::string> text_of(const toml::node& node, Grammar grammar, bool comma_list) {
  const bool text =
      grammar == Grammar::text || grammar == Grammar::choice || grammar == Grammar::backend;
  if (const auto* b = node.as_boolean())
    if (grammar == Grammar::flag) return std::string(b->get() ? "true" : "false");
  if (const auto* i = node.as_integer())
    if (grammar == Grammar::integer || grammar == Grammar::number || grammar == Grammar::seed ||
        (text && comma_list))
      return std::to_string(i->get());
  if (const auto* f = node.as_floating_point())
    if (grammar == Grammar::number || (text && comma_list)) return format_number(f->get());
  if (const auto* s = node.as_string())
    if (text || grammar == Grammar::seed) return s->get();
  return std::nullopt;
}

// One config file's text, for the messages: each names the file and the line, and shows a
// value as the file writes it.
class Source {
 public:
  Source(std::string file, std::string_view text) : file_(std::move(file)) {
    for (std::size_t start = 0; start <= text.size();) {
      const auto end = std::min(text.find('\n', start), text.size());
      lines_.push_back(text.substr(start, end - start));
      start = end + 1;
    }
  }

  [[noreturn]] void fail(std::size_t line, const std::string& what) const {
    throw CLI::ConfigError("config " + file_ + (line > 0 ? " line " + std::to_string(line) : "") +
                           ": " + what);
  }

  // "64.5", "the string \"64\"", "the array [1, 2]": the value as written (shortened), and
  // what it is where its text alone would not say.
  [[nodiscard]] std::string shown(const toml::node& node) const {
    const toml::source_region& at = node.source();
    std::string written;
    if (at.begin.line >= 1 && at.begin.line <= lines_.size()) {
      const std::string_view line = lines_[at.begin.line - 1];
      const std::size_t first = byte_of(line, at.begin.column);
      const std::size_t last =
          at.end.line == at.begin.line ? byte_of(line, at.end.column) : line.size();
      written = std::string(line.substr(first, last - first));
      if (at.end.line != at.begin.line) written += " ...";
    }
    constexpr std::size_t longest = 60;
    if (written.size() > longest) written = written.substr(0, longest) + " ...";
    switch (node.type()) {
      case toml::node_type::string: return "the string " + written;
      case toml::node_type::array: return "the array " + written;
      case toml::node_type::table: return "a table";
      case toml::node_type::date:
      case toml::node_type::time:
      case toml::node_type::date_time: return "the date or time " + written;
      default: return written;
    }
  }

 private:
  // toml++ counts columns in code points, from 1.
  static std::size_t byte_of(std::string_view line, std::size_t column) {
    std::size_t byte = 0;
    for (std::size_t c = 1; c < column && byte < line.size(); ++c) {
      ++byte;
      while (byte < line.size() && (static_cast<unsigned char>(line[byte]) & 0xc0u) == 0x80u)
        ++byte;
    }
    return byte;
  }

  std::string file_;
  std::vector<std::string_view> lines_;
};

std::string read_capped(std::istream& input, const std::string& file) {
  std::string text;
  for (std::istreambuf_iterator<char> in(input), end; in != end; ++in) {
    if (text.size() == max_config_bytes)
      throw CLI::ConfigError("config " + file + ": larger than 1 MiB, which no psfsim config is");
    text += *in;
  }
  return text;
}

// toml++'s "Error while parsing array: encountered end-of-file" as "encountered end-of-file
// (in an array)".
std::string syntax_problem(std::string_view description) {
  constexpr std::string_view lead = "Error while parsing ";
  const auto colon = description.find(": ");
  if (description.substr(0, lead.size()) != lead || colon == std::string_view::npos)
    return std::string(description);
  const std::string_view what = description.substr(lead.size(), colon - lead.size());
  const bool vowel = !what.empty() && std::string_view("aeiou").find(what[0]) != what.npos;
  return std::string(description.substr(colon + 2)) + " (in " + (vowel ? "an " : "a ") +
         std::string(what) + ")";
}

// toml++ 3.3 (Debian 12's) classifies a non-ASCII character as whitespace or not through a
// table whose gaps are __builtin_unreachable(): undefined behaviour wherever it asks, which is
// outside strings and comments, and after a multi-line string's line-ending backslash
// (marzer/tomlplusplus#190, #295). TOML 1.0 has no non-ASCII character outside strings and
// comments, so one there is refused here first; after a line-ending backslash the character
// is passed on as its \UXXXXXXXX escape, which is the same string.
std::string guarded_toml(std::string_view text, const Source& source) {
  enum class In { toml, comment, basic, literal, multi_basic, multi_literal };
  In in = In::toml;
  std::size_t line = 1;
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  const auto at = [&](std::string_view s) { return text.substr(i, s.size()) == s; };
  const auto take = [&](std::size_t length, In next) {
    length = std::min(length, text.size() - i);
    for (std::size_t k = 0; k < length; ++k) line += text[i + k] == '\n' ? 1 : 0;
    out.append(text.substr(i, length));
    i += length;
    in = next;
  };
  // """ or ''' and up to two more quotes, which belong to the string.
  const auto close = [&](char quote) {
    std::size_t n = 0;
    while (n < 5 && i + n < text.size() && text[i + n] == quote) ++n;
    take(n, In::toml);
  };
  while (i < text.size()) {
    const char c = text[i];
    switch (in) {
      case In::toml:
        if (static_cast<unsigned char>(c) >= 0x80)
          source.fail(line, "not valid TOML: a non-ASCII character outside a string or comment");
        if (c == '#') take(1, In::comment);
        else if (at(R"(""")")) take(3, In::multi_basic);
        else if (at("'''")) take(3, In::multi_literal);
        else if (c == '"') take(1, In::basic);
        else if (c == '\'') take(1, In::literal);
        else take(1, In::toml);
        break;
      case In::comment: take(1, c == '\n' ? In::toml : In::comment); break;
      case In::basic:
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') take(2, In::basic);
        else take(1, c == '"' || c == '\n' ? In::toml : In::basic);
        break;
      case In::literal: take(1, c == '\'' || c == '\n' ? In::toml : In::literal); break;
      case In::multi_literal:
        if (at("'''")) close('\'');
        else take(1, In::multi_literal);
        break;
      case In::multi_basic: {
        if (at(R"(""")")) {
          close('"');
          break;
        }
        if (c != '\\') {
          take(1, In::multi_basic);
          break;
        }
        // A line-ending backslash: spaces or tabs, a line break, then whitespace it skips.
        std::size_t end = i + 1;
        while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
        if (end >= text.size() || (text[end] != '\n' && text[end] != '\r')) {
          take(2, In::multi_basic);  // an escape such as \" or \u00e9
          break;
        }
        while (end < text.size() && std::string_view(" \t\r\n").find(text[end]) != text.npos) ++end;
        take(end - i, In::multi_basic);
        char32_t code = 0;
        const std::size_t length = utf8_code_point(text.substr(i), code);
        if (length > 0) {
          char escape[16];
          std::snprintf(escape, sizeof escape, "\\U%08X", static_cast<unsigned>(code));
          out += escape;
          i += length;
        }
        break;
      }
    }
  }
  return out;
}

// Runs the option's checks on a value, as CLI11 will, so that the message names the line.
void check(const OptionInfo& option, const std::string& value, const Source& source,
           std::size_t line, const std::string& key) {
  const std::vector<std::string> parts = option.arity == Arity::list
                                             ? CLI::detail::split(value, ',')
                                             : std::vector<std::string>{value};
  const std::vector<std::string> choices = choices_of(option, build_backends());
  for (std::string part : parts) {
    const std::string why = check_value(option, part, choices);
    if (!why.empty()) source.fail(line, key + ": " + why);
  }
}

// A [[plane]] table (or [[run.plane]]) as the --plane value it stands for:
//   type = "focal", mask = "vortex:6"                      -> focal:vortex:6
//   type = "pupil", diameter = 0.95, obscuration = 0.3,
//     spiders = [4, 0.01, 45]                              -> pupil:0.95,0.3;4,0.01,45
//   type = "distance", z = "25mm"                          -> distance:25mm
std::string plane_text(const toml::node& node, const Source& source, std::size_t line) {
  const toml::table* t = node.as_table();
  if (t == nullptr) source.fail(line, "plane: each plane is a table ([[plane]])");
  const auto string_key = [&](std::string_view name) -> std::optional<std::string> {
    const toml::node* v = t->get(name);
    if (v == nullptr) return std::nullopt;
    if (const auto* s = v->as_string()) return s->get();
    source.fail(line, "plane: '" + std::string(name) + "' takes a string, not " + source.shown(*v));
  };
  const auto number_key = [&](std::string_view name) -> std::optional<std::string> {
    const toml::node* v = t->get(name);
    if (v == nullptr) return std::nullopt;
    if (const auto* d = v->as_floating_point()) return format_number(d->get());
    if (const auto* i = v->as_integer()) return std::to_string(i->get());
    source.fail(line, "plane: '" + std::string(name) + "' takes a number, not " + source.shown(*v));
  };
  const auto allow = [&](std::initializer_list<std::string_view> keys) {
    for (auto&& [k, v] : *t)
      if (std::find(keys.begin(), keys.end(), k.str()) == keys.end())
        source.fail(k.source().begin.line,
                    "plane: unknown key '" + std::string(k.str()) + "' for this plane's type");
  };
  const std::optional<std::string> type = string_key("type");
  if (!type) source.fail(line, "plane: needs type = \"focal\", \"pupil\" or \"distance\"");
  if (*type == "focal") {
    allow({"type", "mask"});
    const auto mask = string_key("mask");
    if (!mask) source.fail(line, "plane: a focal plane needs mask = \"...\" (as --coronagraph)");
    return "focal:" + *mask;
  }
  if (*type == "pupil") {
    allow({"type", "diameter", "obscuration", "spiders"});
    std::string text = "pupil:" + number_key("diameter").value_or("1");
    if (const auto o = number_key("obscuration")) text += "," + *o;
    if (const toml::node* sp = t->get("spiders")) {
      std::vector<std::string> parts;
      if (const toml::array* a = sp->as_array()) {
        for (const toml::node& item : *a) {
          auto v = text_of(item, Grammar::text, true);
          if (!v) source.fail(line, "plane: spiders takes COUNT,WIDTH[,ANGLE]");
          parts.push_back(*v);
        }
      } else if (const auto* str = sp->as_string()) {
        parts.push_back(str->get());
      } else {
        source.fail(line, "plane: spiders takes \"COUNT,WIDTH[,ANGLE]\" or an array");
      }
      text += ";" + CLI::detail::join(parts, ",");
    }
    return text;
  }
  if (*type == "distance") {
    allow({"type", "z"});
    const auto z = string_key("z");
    if (!z) source.fail(line, "plane: a distance needs z = \"LENGTH\" (e.g. \"25mm\")");
    return "distance:" + *z;
  }
  source.fail(line, "plane: type '" + *type + "' is not focal, pupil or distance");
}

// The command line's train replaces the file's planes, whichever way each writes it.
bool train_on_command_line(const std::set<std::string>& keys) {
  for (const char* k : {"plane", "coronagraph", "lyot-stop", "lyot-spiders"})
    if (keys.count(k) > 0) return true;
  return false;
}

// The --plane item of an array of plane tables.
CLI::ConfigItem plane_items(const toml::node& value, const Source& source, std::size_t line) {
  const toml::array* planes = value.as_array();
  if (planes == nullptr || planes->empty())
    source.fail(line, "plane: write the planes as [[plane]] tables, in the order light meets them");
  CLI::ConfigItem entry;
  entry.parents = {"run"};
  entry.name = "plane";
  for (const toml::node& p : *planes) entry.inputs.push_back(plane_text(p, source, line));
  return entry;
}

}  // namespace

std::set<std::string> long_option_names(int argc, const char* const* argv) {
  std::set<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg == "--") break;  // positional arguments follow
    if (arg.size() > 2 && arg.substr(0, 2) == "--")
      names.emplace(arg.substr(
          2, arg.find('=') == std::string_view::npos ? std::string_view::npos : arg.find('=') - 2));
  }
  return names;
}

bool ConfigFile::overridden(const std::string& key) const {
  const auto given = [&](const Side& side) {
    return std::any_of(side.begin(), side.end(), [&](Option id) {
      return command_line_keys_.count(std::string(psfsim::key(id))) > 0;
    });
  };
  for (const auto& sides : exclusive_options)
    for (const Side& mine : sides) {
      const auto named = [&](Option id) { return psfsim::key(id) == key; };
      if (std::none_of(mine.begin(), mine.end(), named) || given(mine)) continue;
      if (std::any_of(sides.begin(), sides.end(),
                      [&](const Side& other) { return &other != &mine && given(other); }))
        return true;
    }
  return false;
}

std::string nearest_option(const CLI::App& app, const std::string& name) {
  // Edit distance, within a third of the name (at least 1, at most 3): "sampels" is
  // "samples", "x" is nothing.
  const auto distance = [](std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diagonal = above;
      }
    }
    return row[b.size()];
  };
  const std::size_t within = std::clamp<std::size_t>(name.size() / 3, 1, 3);
  std::string best;
  std::size_t best_distance = within + 1;
  for (const CLI::Option* op : app.get_options())
    for (const std::string& candidate : op->get_lnames()) {
      if (!op->get_configurable() && candidate == "help") continue;
      const std::size_t d = distance(name, candidate);
      if (d < best_distance) {
        best = candidate;
        best_distance = d;
      }
    }
  return best;
}

std::vector<CLI::ConfigItem> ConfigFile::from_config(std::istream& input) const {
  const CLI::Option* config = app_.get_config_ptr();
  const std::string file =
      config != nullptr && config->count() > 0 ? config->as<std::string>() : "";
  const std::string text = read_capped(input, file);
  const std::string_view toml_text = without_bom(text);
  const Source source(file, toml_text);
  toml::table root;
  try {
    root = toml::parse(guarded_toml(toml_text, source));
  } catch (const toml::parse_error& e) {
    source.fail(e.source().begin.line, "not valid TOML: " + syntax_problem(e.description()));
  }

  std::vector<CLI::ConfigItem> items;
  for (auto&& [table_key, table_node] : root) {
    const std::string table_name(table_key.str());
    const std::size_t table_line = table_key.source().begin.line;
    // [[plane]] at the top: the planes of [run]'s optical train.
    if (table_name == "plane" && table_node.is_array_of_tables()) {
      if (!train_on_command_line(command_line_keys_))
        items.push_back(plane_items(table_node, source, table_line));
      continue;
    }
    const toml::table* keys = table_node.as_table();
    if (keys == nullptr)
      source.fail(table_line, "key '" + table_name +
                                  "' is outside a table: psfsim's keys go "
                                  "in [run] or [sweep]");
    CLI::App* table = nullptr;
    Command command = Command::run;
    for (const ConfigTableName& t : config_tables)
      if (t.name == table_name) {
        table = app_.get_subcommand(table_name);
        command = t.command;
      }
    if (table == nullptr)
      source.fail(table_line, "unknown table [" + table_name + "]: psfsim reads [run] and [sweep]");

    for (auto&& [key_name, value] : *keys) {
      const std::string key(key_name.str());
      const std::size_t line = key_name.source().begin.line;
      const std::string where = "key '" + key + "' in [" + table_name + "]";
      CLI::Option* op = option_of(*table, key);
      const OptionInfo* row = op == nullptr || op->get_lnames().empty()
                                  ? nullptr
                                  : find_option(command, op->get_lnames().front());
      if (row == nullptr || !op->get_configurable()) {
        const std::string near = nearest_option(*table, key);
        source.fail(line, "unknown key '" + key + "' in [" + table_name + "]" +
                              (near.empty() ? "" : "; did you mean '" + near + "'?"));
      }
      if (overridden(key)) continue;
      if (command == Command::run && key == "plane" && value.is_array_of_tables()) {
        if (!train_on_command_line(command_line_keys_))
          items.push_back(plane_items(value, source, line));
        continue;
      }

      const Grammar grammar = row->grammar;
      const bool comma_list = row->arity == Arity::comma_text;
      const bool repeatable = row->arity == Arity::repeated || row->arity == Arity::list;
      const auto convert = [&](const toml::node& item) {
        auto converted = text_of(item, grammar, comma_list);
        if (!converted)
          source.fail(line, where + " takes " + expected(grammar, comma_list) + ", not " +
                                source.shown(item));
        return std::move(*converted);
      };
      CLI::ConfigItem entry;
      entry.parents = {table_name};
      entry.name = key;
      if (const toml::array* array = value.as_array()) {
        if (!repeatable && !comma_list)
          source.fail(line, where + " takes one value, not " + source.shown(value) +
                                "; arrays are for lists such as zernike, wavelengths or ee-radii");
        if (array->empty())
          source.fail(line, where + ": an empty array; leave the key out instead");
        for (const toml::node& item : *array) entry.inputs.push_back(convert(item));
        if (comma_list) entry.inputs = {CLI::detail::join(entry.inputs, ",")};
      } else {
        entry.inputs = {convert(value)};
      }
      // A value the command line replaces is not checked, as CLI11 never reads it.
      if (op->empty())
        for (const std::string& v : entry.inputs) check(*row, v, source, line, where);
      items.push_back(std::move(entry));
    }
  }
  return items;
}

}  // namespace psfsim::app

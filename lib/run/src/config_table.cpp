#include "psfsim/config_table.hpp"

#include <toml++/toml.h>

#include <sstream>
#include <utility>

#include "psfsim/text_fields.hpp"

namespace psfsim {
namespace {

// Basic strings with escapes, UTF-8 as it is: "µm" stays "µm".
constexpr toml::format_flags flags = toml::format_flags::allow_unicode_strings;

// Whether toml++ can write `text` as it is: TOML strings are UTF-8.
bool utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    char32_t code = 0;
    const std::size_t length = utf8_code_point(text.substr(i), code);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

template <typename Value>
std::string line(Option id, Value&& value) {
  toml::table one;
  one.insert(key(id), std::forward<Value>(value));
  std::ostringstream out;
  out << toml::toml_formatter{one, flags};
  return out.str();
}

}  // namespace

void ConfigTable::text(Option id, std::string_view value) {
  // toml++ would write a byte that is not UTF-8 as the character of that number, naming
  // another file; as its bytes, the file is refused when read back ("Encountered invalid
  // utf-8 sequence") until the name is edited (docs/cli.md).
  if (!utf8(value)) {
    lines_.push_back(std::string(key(id)) + " = " + toml_string(value));
    return;
  }
  lines_.push_back(line(id, std::string(value)));
}

void ConfigTable::integer(Option id, long long value) {
  lines_.push_back(line(id, static_cast<std::int64_t>(value)));
}

void ConfigTable::number(Option id, double value) { lines_.push_back(line(id, value)); }

void ConfigTable::boolean(Option id, bool value) { lines_.push_back(line(id, value)); }

void ConfigTable::seed(Option id, std::uint64_t value) {
  if (value > static_cast<std::uint64_t>(INT64_MAX)) text(id, std::to_string(value));
  else integer(id, static_cast<long long>(value));
}

void ConfigTable::texts(Option id, const std::vector<std::string>& values) {
  // Terms, names of backends and precisions: parsed words, ASCII.
  toml::array array;
  for (const std::string& v : values) array.push_back(v);
  lines_.push_back(line(id, std::move(array)));
}

void ConfigTable::integers(Option id, const std::vector<int>& values) {
  toml::array array;
  for (const int v : values) array.push_back(static_cast<std::int64_t>(v));
  lines_.push_back(line(id, std::move(array)));
}

std::string ConfigTable::toml() const {
  std::string out = "[" + name_ + "]\n";
  for (const std::string& l : lines_) out += l + "\n";
  return out;
}

}  // namespace psfsim

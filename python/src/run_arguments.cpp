#include "run_arguments.hpp"

#include <algorithm>

#include "cli/command_line.hpp"
#include "psfsim/command_line_text.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim::python {
namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; }

}  // namespace

std::string in_keywords(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  for (std::size_t i = 0; i < message.size();) {
    const bool starts = message.compare(i, 2, "--") == 0 && i + 2 < message.size() &&
                        std::isalpha(static_cast<unsigned char>(message[i + 2])) &&
                        (i == 0 || !name_char(message[i - 1]));
    if (!starts) {
      out += message[i++];
      continue;
    }
    std::size_t end = i + 2;
    while (end < message.size() && name_char(message[end])) ++end;
    const std::string name = message.substr(i + 2, end - i - 2);
    if (find_option(Command::run, name) != nullptr || name == key(Option::config)) {
      for (const char c : name) out += c == '-' ? '_' : c;
    } else {
      out.append(message, i, end - i);
    }
    i = end;
  }
  return out;
}

ParsedRun parse_run(const std::vector<std::string>& arguments, const std::string& config) {
  std::vector<std::string> words{"psfsim"};
  if (!config.empty()) {
    words.push_back(flag(Option::config));
    words.push_back(config);
  }
  words.emplace_back("run");
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  const int argc = static_cast<int>(argv.size());

  const auto cli = app::make_command_line();
  try {
    app::parse_command_line(*cli, argc, argv.data());
  } catch (const CLI::ParseError& e) {
    throw InputError(in_keywords(app::parse_error_message(*cli, e, argc, argv.data())));
  }
  ParsedRun parsed;
  try {
    parsed.spec = app::to_run_spec(cli->run_options);
  } catch (const InputError& e) {
    throw InputError(in_keywords(e.what()));
  }
  parsed.configs = cli->app.get_config_ptr()->results();
  parsed.command_line = quote_command_line(argc, argv.data());
  return parsed;
}

}  // namespace psfsim::python

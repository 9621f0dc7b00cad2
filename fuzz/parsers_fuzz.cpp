// One fuzz target for every parser of user input. The first byte picks the parser, the rest
// is its text. A parser may refuse input only with psfsim::InputError (or CLI11's parse
// errors, which main() turns into exit 2 with psfsim's own message); any other exception,
// a crash, a sanitizer finding, a message in CLI11's words, or a broken round trip (a
// number, a seed or an effective configuration that does not read back as itself) is a bug.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command_line.hpp"
#include "psfsim/compression.hpp"
#include "psfsim/effective_config.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/frames_file.hpp"
#include "psfsim/metrics.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"
#include "psfsim/aberration.hpp"
#include "psfsim/spectrum.hpp"
#include "psfsim/units.hpp"

namespace {

using psfsim::InputError;

// A file holding `text`, for the parsers that read files; one per process, rewritten.
std::string file_with(std::string_view text, const char* suffix) {
  static const std::string base = "/tmp/psfsim-fuzz-" + std::to_string(::getpid());
  const std::string path = base + suffix;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return path;
}

// Arguments separated by newlines, after the program name.
std::vector<std::string> arguments(std::string_view text) {
  std::vector<std::string> args{"psfsim"};
  for (const auto field : psfsim::split_fields(text, '\n')) args.emplace_back(field);
  return args;
}

// CLI11's own phrases, which psfsim's messages replace (unless the input itself held them,
// echoed back).
bool in_cli11_words(const std::string& message, std::string_view input) {
  for (const std::string_view phrase : {"INI ", "At Most", "At least", "Could not convert",
                                        "not expected", "required but received", "not in {"})
    if (message.find(phrase) != std::string::npos && input.find(phrase) == std::string::npos)
      return true;
  return message.empty();
}

// The effective [run] table a run records; `input` is the text the arguments came from.
std::string effective_config(const std::vector<std::string>& args, std::string_view input,
                             bool& parsed);

// TOML is UTF-8: a file name that is not cannot be written in it (the recorded config keeps
// its bytes, which psfsim then refuses to read, naming the line).
bool utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    char32_t code = 0;
    const std::size_t length = static_cast<unsigned char>(text[i]) < 0x80
                                   ? 1
                                   : psfsim::utf8_code_point(text.substr(i), code);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

void parse_command_line(const std::vector<std::string>& args, std::string_view input) {
  bool parsed = false;
  const std::string config = effective_config(args, input, parsed);
  if (!parsed || !utf8(config)) return;
  // Fed back with -c, the effective configuration is the same run.
  bool again = false;
  const std::vector<std::string> back{"psfsim", "-c", file_with(config, ".again.toml"), "run"};
  if (effective_config(back, config, again) != config || !again) __builtin_trap();
}

std::string effective_config(const std::vector<std::string>& args, std::string_view input,
                             bool& parsed) {
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  const int argc = static_cast<int>(argv.size());
  auto cli = psfsim::app::make_command_line();
  parsed = false;
  try {
    psfsim::app::parse_command_line(*cli, argc, argv.data());
  } catch (const CLI::CallForHelp&) {
    return {};
  } catch (const CLI::CallForAllHelp&) {
    return {};
  } catch (const CLI::CallForVersion&) {
    return {};
  } catch (const CLI::ParseError& e) {  // refused: exit 2 with this line
    if (in_cli11_words(psfsim::app::parse_error_message(*cli, e, argc, argv.data()), input))
      __builtin_trap();
    return {};
  }
  if (!cli->run->parsed()) return {};
  try {
    const std::string config = psfsim::to_toml(psfsim::app::to_run_spec(cli->run_options));
    parsed = true;
    return config;
  } catch (const InputError&) {
    return {};
  }
}

void fuzz_terms(std::string_view text) {
  try {
    (void)psfsim::parse_seidel(text, "--seidel");
  } catch (const InputError&) {
  }
  try {
    (void)psfsim::parse_zernike(text, "--zernike");
  } catch (const InputError&) {
  }
  try {
    (void)psfsim::parse_term_id(text, "CSV header");
  } catch (const InputError&) {
  }
  try {
    (void)psfsim::parse_compression(text);
  } catch (const InputError&) {
  }
  (void)psfsim::parse_finite_double(text);
  (void)psfsim::parse_integer(text);
  try {
    (void)psfsim::parse_metrics(text);
  } catch (const InputError&) {
  }
  // docs/spec.md §7's radius and frequency lists must read back from their own formatting.
  try {
    const auto values = psfsim::parse_number_list(text, "--ee-radii");
    if (psfsim::parse_number_list(psfsim::format_number_list(values), "x") != values)
      __builtin_trap();
  } catch (const InputError&) {
  }
}

// Units and spectra (docs/spec.md §6); a parsed value must read back from its own formatting.
void fuzz_units(std::string_view text) {
  try {
    const double metres = psfsim::parse_length(text, "--wavelength");
    if (psfsim::parse_length(psfsim::format_length(metres), "x") != metres) __builtin_trap();
  } catch (const InputError&) {
  }
  try {
    const psfsim::Angle a = psfsim::parse_angle(text, "--pixel-scale", true);
    const psfsim::Angle back = psfsim::parse_angle(psfsim::format_angle(a), "x", true);
    if (back.value != a.value || back.lod != a.lod) __builtin_trap();
  } catch (const InputError&) {
  }
  try {
    (void)psfsim::parse_wavelengths(text, "--wavelengths");
  } catch (const InputError&) {
  }
  try {
    (void)psfsim::band_spectrum(text, "--band");
  } catch (const InputError&) {
  }
}

void fuzz_batches(std::string_view text) {
  try {
    const auto vary = psfsim::parse_vary(text);
    if (vary.count <= 10000) (void)psfsim::expand(psfsim::Aberration{}, vary);
  } catch (const InputError&) {
  }
  try {
    const auto random = psfsim::parse_random(text);
    if (random.count <= 10000) (void)psfsim::expand(psfsim::Aberration{}, random);
  } catch (const InputError&) {
  }
}

void fuzz_csv(std::string_view text) {
  try {
    (void)psfsim::read_frames_csv(psfsim::Aberration{}, file_with(text, ".csv"));
  } catch (const InputError&) {
  }
}

// The seed parser, the printable form of echoed text, the byte-order mark and the options'
// own checks on numbers.
void fuzz_text(std::string_view text) {
  if (const auto seed = psfsim::parse_seed(text)) {
    if (psfsim::parse_seed(std::to_string(*seed)) != seed) __builtin_trap();
    if (psfsim::trim(text).find_first_not_of("0123456789") != std::string_view::npos)
      __builtin_trap();
  }
  const std::string shown = psfsim::printable(text);
  for (const char c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) __builtin_trap();
  if (psfsim::printable(shown) != shown) __builtin_trap();
  const std::string_view rest = psfsim::without_bom(text);
  if (rest.size() != text.size() && rest.size() + 3 != text.size()) __builtin_trap();
  // A value a check accepts comes out in the form the same check accepts unchanged.
  constexpr psfsim::OptionInfo integer{.id = psfsim::Option::threads,
                                       .grammar = psfsim::Grammar::integer,
                                       .lowest = -5,
                                       .highest = 1'000'000};
  for (const psfsim::OptionInfo& check : {integer, psfsim::option(psfsim::Option::obscuration),
                                          psfsim::option(psfsim::Option::noise_seed)}) {
    std::string value(text);
    if (!psfsim::check_value(check, value, {}).empty()) continue;
    std::string again = value;
    if (!psfsim::check_value(check, again, {}).empty() || again != value) __builtin_trap();
  }
}

// A byte-order mark before a config file and a CSV file.
void fuzz_marked(std::string_view text) {
  const std::string marked = "\xef\xbb\xbf" + std::string(text);
  parse_command_line({"psfsim", "-c", file_with(marked, ".toml"), "run"}, text);
  fuzz_csv(marked);
}

void fuzz_config(std::string_view text) {
  parse_command_line({"psfsim", "-c", file_with(text, ".toml"), "run"}, text);
  parse_command_line({"psfsim", "-c", file_with(text, ".toml"), "sweep"}, text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 8) {
    case 0: parse_command_line(arguments(text), text); break;
    case 1: fuzz_config(text); break;
    case 2: fuzz_csv(text); break;
    case 3: fuzz_terms(text); break;
    case 4: fuzz_batches(text); break;
    case 5: fuzz_units(text); break;
    case 6: fuzz_text(text); break;
    case 7: fuzz_marked(text); break;
  }
  return 0;
}

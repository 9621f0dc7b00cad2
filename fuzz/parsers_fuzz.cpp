// One fuzz target for every parser of user input. The first byte picks the parser, the rest
// is its text. A parser may refuse input only with psfsim::InputError (or CLI11's parse
// errors, which main() turns into exit 2); any other exception, a crash or a sanitizer
// finding is a bug.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "command_line.hpp"
#include "psfsim/compression.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/frame_sources.hpp"
#include "psfsim/metrics.hpp"
#include "psfsim/number_text.hpp"
#include "psfsim/phase_terms.hpp"
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

void parse_command_line(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  auto cli = psfsim::app::make_command_line();
  try {
    cli->app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError&) {
    return;  // refused: exit 2 (or help/version) in psfsim
  }
  if (cli->run->parsed()) {
    try {
      (void)psfsim::app::to_run_spec(cli->run_options);
    } catch (const InputError&) {
    }
  }
}

void fuzz_terms(std::string_view text) {
  try { (void)psfsim::parse_seidel(text, "--seidel"); } catch (const InputError&) {}
  try { (void)psfsim::parse_zernike(text, "--zernike"); } catch (const InputError&) {}
  try { (void)psfsim::parse_term_id(text, "CSV header"); } catch (const InputError&) {}
  try { (void)psfsim::parse_compression(text); } catch (const InputError&) {}
  (void)psfsim::parse_finite_double(text);
  (void)psfsim::parse_integer(text);
  try { (void)psfsim::parse_metrics(text); } catch (const InputError&) {}
  // SPEC §7's radius and frequency lists must read back from their own formatting.
  try {
    const auto values = psfsim::parse_number_list(text, "--ee-radii");
    if (psfsim::parse_number_list(psfsim::format_number_list(values), "x") != values)
      __builtin_trap();
  } catch (const InputError&) {
  }
}

// Units and spectra (SPEC §6); a parsed value must read back from its own formatting.
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
  try { (void)psfsim::parse_wavelengths(text, "--wavelengths"); } catch (const InputError&) {}
  try { (void)psfsim::band_spectrum(text, "--band"); } catch (const InputError&) {}
}

void fuzz_batches(std::string_view text) {
  try {
    const auto vary = psfsim::parse_vary(text);
    if (vary.count <= 10000) (void)psfsim::expand(psfsim::PhaseTerms{}, vary);
  } catch (const InputError&) {
  }
  try {
    const auto random = psfsim::parse_random(text);
    if (random.count <= 10000) (void)psfsim::expand(psfsim::PhaseTerms{}, random);
  } catch (const InputError&) {
  }
}

void fuzz_csv(std::string_view text) {
  try {
    (void)psfsim::read_frames_csv(psfsim::PhaseTerms{}, file_with(text, ".csv"));
  } catch (const InputError&) {
  }
}

void fuzz_config(std::string_view text) {
  parse_command_line({"psfsim", "-c", file_with(text, ".toml"), "run"});
  parse_command_line({"psfsim", "-c", file_with(text, ".toml"), "sweep"});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 6) {
    case 0: parse_command_line(arguments(text)); break;
    case 1: fuzz_config(text); break;
    case 2: fuzz_csv(text); break;
    case 3: fuzz_terms(text); break;
    case 4: fuzz_batches(text); break;
    case 5: fuzz_units(text); break;
  }
  return 0;
}

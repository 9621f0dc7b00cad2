#include "psfsim/config_text.hpp"

#include <charconv>
#include <sstream>

namespace psfsim {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

template <typename Term>
std::string toml_array(const std::vector<Term>& terms) {
  std::string out = "[";
  for (std::size_t i = 0; i < terms.size(); ++i)
    out += (i ? ", " : "") + quoted(to_string(terms[i]));
  return out + "]";
}

// Shortest text that reads back to the same double: "0.1", not "0.10000000000000001".
std::string number(double v) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, v);
  return std::string(text, result.ptr);
}

}  // namespace

std::string to_toml(const RunSpec& spec) {
  const Geometry g = geometry(spec);
  std::ostringstream t;
  t << "[run]\n";
  t << "backend = " << quoted(spec.backend) << "\n";
  t << "precision = " << quoted(std::string(to_string(spec.precision))) << "\n";
  t << "samples = " << spec.samples << "\n";
  t << "padded-size = " << g.padded << "\n";
  t << "grid = " << quoted(std::string(to_string(spec.grid))) << "\n";
  const PhaseTerms& first = spec.fixed_terms;
  // CLI11 rejects an empty array for an option, so absent terms are absent keys.
  if (!first.seidel.empty()) t << "seidel = " << toml_array(first.seidel) << "\n";
  if (!first.zernike.empty()) t << "zernike = " << toml_array(first.zernike) << "\n";
  t << "obscuration = " << number(spec.obscuration) << "\n";
  t << "normalize = " << quoted(std::string(to_string(spec.normalization))) << "\n";
  if (!spec.vary.empty()) t << "vary = " << quoted(spec.vary) << "\n";
  if (!spec.random.empty()) t << "random = " << quoted(spec.random) << "\n";
  if (!spec.frames_file.empty()) t << "frames = " << quoted(spec.frames_file) << "\n";
  if (spec.crop) t << "crop = " << *spec.crop << "\n";
  t << "repeat = " << spec.repeat << "\n";
  t << "threads = " << spec.threads << "\n";
  t << "device = " << spec.device << "\n";
  t << "fft-effort = " << quoted(std::string(to_string(spec.fft_effort))) << "\n";
  if (spec.stage_timing) t << "stage-timing = true\n";
  if (spec.chunk_frames > 0) t << "chunk-frames = " << spec.chunk_frames << "\n";
  if (!spec.wisdom.empty()) t << "wisdom = " << quoted(spec.wisdom) << "\n";
  t << "output = " << quoted(spec.output.string()) << "\n";
  return t.str();
}

std::string quote_command_line(int argc, const char* const* argv) {
  std::string out;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    const bool plain = !a.empty() && a.find_first_not_of(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:+@%") ==
        std::string::npos;
    if (i) out += ' ';
    if (plain) {
      out += a;
    } else {
      out += '\'';
      for (char c : a) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
      out += '\'';
    }
  }
  return out;
}

}  // namespace psfsim

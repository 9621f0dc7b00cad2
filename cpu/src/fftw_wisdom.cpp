#include "fftw_wisdom.hpp"

#include <fftw3.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "psfsim/errors.hpp"

namespace psfsim::cpu {
namespace {

std::string take_string(char* text) {
  if (text == nullptr) return {};
  std::string out(text);
  std::free(text);  // FFTW's export_wisdom_to_string allocates with malloc
  return out;
}

}  // namespace

void import_wisdom(const std::string& path) {
  std::ifstream in(path);
  if (!in) return;
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  // The file holds one S-expression per precision, each starting "(fftw-".
  std::size_t start = text.find("(fftw-");
  while (start != std::string::npos) {
    const std::size_t next = text.find("(fftw-", start + 1);
    const std::string section = text.substr(start, next == std::string::npos ? next : next - start);
    // Each precision accepts only its own section; the other call fails harmlessly.
    if (fftw_import_wisdom_from_string(section.c_str()) == 0 &&
        fftwf_import_wisdom_from_string(section.c_str()) == 0)
      throw InputError("--wisdom " + path + ": not an FFTW wisdom file");
    start = next;
  }
}

void export_wisdom(const std::string& path) {
  const std::string text = take_string(fftw_export_wisdom_to_string()) + "\n" +
                           take_string(fftwf_export_wisdom_to_string()) + "\n";
  const std::string temporary = path + ".partial-" + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    out << text;
    if (!out) throw RuntimeFailure("--wisdom " + path + ": cannot write " + temporary);
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    throw RuntimeFailure("--wisdom " + path + ": cannot replace the file");
  }
}

}  // namespace psfsim::cpu

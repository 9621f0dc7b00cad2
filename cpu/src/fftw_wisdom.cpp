#include "fftw_wisdom.hpp"

#include <fftw3.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
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

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The file holds one S-expression per precision, each starting "(fftw-"; each precision
// accepts only its own section, the other call fails harmlessly. False when a section is
// accepted by neither.
bool import_text(const std::string& text) {
  std::size_t start = text.find("(fftw-");
  const std::size_t first_text = text.find_first_not_of(" \t\r\n");
  if (first_text != std::string::npos && first_text != start) return false;
  while (start != std::string::npos) {
    const std::size_t next = text.find("(fftw-", start + 1);
    const std::string section = text.substr(start, next == std::string::npos ? next : next - start);
    if (fftw_import_wisdom_from_string(section.c_str()) == 0 &&
        fftwf_import_wisdom_from_string(section.c_str()) == 0)
      return false;
    start = next;
  }
  return true;
}

void write_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".partial-" + std::to_string(::getpid());
  {
    std::ofstream out(temporary);
    if (!out) throw RuntimeFailure("cannot create " + temporary + ": " + std::strerror(errno));
    out << text;
    out.close();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(temporary, ec);
      throw RuntimeFailure("cannot write " + temporary);
    }
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    throw RuntimeFailure("cannot replace it: " + ec.message());
  }
}

// Once per file and process: a sweep plans many times.
void warn_not_saved(const std::string& path, const std::string& why) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  const std::lock_guard lock(mutex);
  if (!warned.insert(path).second) return;
  std::fprintf(stderr,
               "psfsim: warning: --wisdom %s: FFTW's plans not saved (%s); the run "
               "goes on\n",
               path.c_str(), why.c_str());
}

// A link is followed, so that the file it names is the one replaced.
std::string resolved(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_symlink(path, ec)) return path;
  const std::filesystem::path target = std::filesystem::canonical(path, ec);
  return ec ? path : target.string();
}

}  // namespace

void import_wisdom(const WisdomFile& file) {
  if (file.path.empty()) return;
  // A damaged cache is rebuilt by this run's export; a named file is the user's to fix.
  if (!import_text(read_text(file.path)) && !file.is_cache)
    throw InputError("--wisdom " + file.path + ": not an FFTW wisdom file");
}

void export_wisdom(const WisdomFile& file) {
  if (file.path.empty()) return;
  const std::string before = read_text(file.path);
  (void)import_text(before);  // keep what other processes added since our import
  const std::string text = take_string(fftw_export_wisdom_to_string()) + "\n" +
                           take_string(fftwf_export_wisdom_to_string()) + "\n";
  if (text == before) return;
  try {
    if (file.is_cache) {
      std::error_code ec;
      std::filesystem::create_directories(std::filesystem::path(file.path).parent_path(), ec);
    }
    write_atomically(resolved(file.path), text);
  } catch (const RuntimeFailure& e) {
    if (!file.is_cache) warn_not_saved(file.path, e.what());
  }
}

WisdomSetAside::WisdomSetAside()
    : double_(take_string(fftw_export_wisdom_to_string())),
      single_(take_string(fftwf_export_wisdom_to_string())) {
  fftw_forget_wisdom();
  fftwf_forget_wisdom();
}

WisdomSetAside::~WisdomSetAside() {
  fftw_forget_wisdom();
  fftwf_forget_wisdom();
  (void)fftw_import_wisdom_from_string(double_.c_str());
  (void)fftwf_import_wisdom_from_string(single_.c_str());
}

}  // namespace psfsim::cpu

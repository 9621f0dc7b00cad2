#include "psfsim/option_table.hpp"
#include "psfsim/output_path.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "file_kind.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/partial_file.hpp"
#include "psfsim/stop_signals.hpp"

namespace psfsim {
namespace fs = std::filesystem;
namespace {

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  std::string host(name);
  for (char& c : host)  // the name stays one path component
    if (c == '/') c = '_';
  return host;
}

// The partial file, and the empty file that tries the folder before anything is computed.
constexpr std::string_view partial_marker = ".partial-";
constexpr std::string_view probe_marker = ".probe-";

// FNV-1a: the same in every process (the MPI ranks name the job's files alike).
std::string hash_text(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) hex[static_cast<std::size_t>(i)] = digits[h & 0xf];
  return hex;
}

std::string marked_name(std::string_view name, std::string_view marker, std::string_view tag) {
  const std::string suffix = std::string(marker) + std::string(tag.empty() ? process_tag() : tag);
  if (1 + name.size() + suffix.size() <= NAME_MAX) return "." + std::string(name) + suffix;
  const std::string hash = "~" + hash_text(name);
  const std::size_t fixed = 1 + hash.size() + suffix.size();
  std::size_t keep = fixed < NAME_MAX ? NAME_MAX - fixed : 0;
  // Never half a UTF-8 character: the cut backs off over continuation bytes.
  while (keep > 0 && (static_cast<unsigned char>(name[keep]) & 0xC0) == 0x80) --keep;
  return "." + std::string(name.substr(0, keep)) + hash + suffix;
}

// The PID of a partial or probe file of this host, or 0 for any other name.
long pid_of_ours(const std::string& name) {
  if (name.empty() || name[0] != '.') return 0;
  for (const std::string_view marker : {partial_marker, probe_marker}) {
    const std::string prefix = std::string(marker) + host_name() + "-";
    const auto at = name.rfind(prefix);
    if (at == std::string::npos) continue;
    const std::string digits = name.substr(at + prefix.size());
    if (digits.empty() || digits.size() > 18 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      return 0;
    return std::strtol(digits.c_str(), nullptr, 10);
  }
  return 0;
}

void remove_stale_partials_in(int folder_fd) {
  const int listing = ::openat(folder_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (listing < 0) return;
  DIR* dir = ::fdopendir(listing);
  if (dir == nullptr) {
    ::close(listing);
    return;
  }
  while (const dirent* entry = ::readdir(dir)) {
    const long pid = pid_of_ours(entry->d_name);
    // Only a process that no longer exists on this host; EPERM means it exists.
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)
      ::unlinkat(folder_fd, entry->d_name, 0);
  }
  ::closedir(dir);
}

// A name in the path that no file system takes: refused as the bad input it is.
void check_name_lengths(const fs::path& path, const std::string& name) {
  for (const fs::path& part : path)
    if (part.native().size() > NAME_MAX)
      throw InputError(name + ": a name in the path has " + std::to_string(part.native().size()) +
                       " bytes; a file system takes at most " + std::to_string(NAME_MAX));
  if (path.native().size() >= PATH_MAX)
    throw InputError(name + ": the path has " + std::to_string(path.native().size()) +
                     " bytes; at most " + std::to_string(PATH_MAX - 1) + " can be opened");
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// `output` exists (`entry` its own entry, unfollowed): one of the inputs, by itself or by
// what it links to, is refused with or without --force.
void check_not_an_input(const fs::path& output, const struct stat& entry, const std::string& name,
                        std::span<const InputFile> inputs) {
  struct stat followed {};
  const bool resolves = ::stat(output.c_str(), &followed) == 0;
  for (const InputFile& input : inputs) {
    struct stat in {};
    if (input.path.empty() || ::stat(input.path.c_str(), &in) != 0) continue;
    if (same_file(in, entry) || (resolves && same_file(in, followed)))
      throw InputError(name + ": is the same file as " + input.option + " " + input.path.string() +
                       ", which it would replace; write to another name");
  }
}

}  // namespace

std::string process_tag() { return host_name() + "-" + std::to_string(::getpid()); }

std::string partial_file_name(std::string_view name, std::string_view tag) {
  return marked_name(name, partial_marker, tag);
}

void remove_stale_partials(const fs::path& target) {
  try {
    const OutputFolder folder(target);
    remove_stale_partials_in(folder.fd());
  } catch (const RuntimeFailure&) {  // tidying only
  }
}

void check_output_path(const fs::path& path, bool force, std::string_view named_by,
                       std::span<const InputFile> inputs) {
  const bool output = named_by.empty() || named_by == flag(Option::output);
  const std::string option = output ? flag(Option::output) : std::string(named_by);
  const std::string name = option + " " + path.string();
  if (path.empty()) {
    const OptionInfo& o = psfsim::option(Option::output);  // "-o FILE"
    const std::string usage =
        std::string(" (-") + o.short_name + " " + std::string(o.value_name) + ")";
    throw InputError(option + ": an output file is required" + (output ? usage : ""));
  }
  if (path.filename().empty()) throw InputError(name + ": is a folder, not a file name");
  check_name_lengths(path, name);
  struct stat entry {};
  if (::lstat(path.c_str(), &entry) == 0) {
    struct stat followed {};
    if (S_ISDIR(entry.st_mode) || (S_ISLNK(entry.st_mode) && ::stat(path.c_str(), &followed) == 0 &&
                                   S_ISDIR(followed.st_mode)))
      throw InputError(name + ": is a folder, not a file name");
    check_not_an_input(path, entry, name, inputs);
    // A link is not replaced either: its target may be anything (/dev/stdout leads to a
    // terminal or a pipe), and replacing the link changes where it leads for every user.
    if (!S_ISREG(entry.st_mode))
      throw InputError(name + ": is " + file_kind(entry.st_mode) +
                       ", which psfsim never replaces (" + flag(Option::force) +
                       " replaces only a regular file" +
                       (S_ISLNK(entry.st_mode) ? ": name the file the link points to)" : ")"));
    if (!force)
      throw InputError(name + ": file exists (use " + flag(Option::force) + " to overwrite)");
  } else if (errno == ENAMETOOLONG) {
    throw InputError(name + ": " + std::strerror(errno));
  }
  // A real file, not access(): root passes access() on read-only mounts and pseudo file
  // systems. Refused here, before any computing, as the I/O failure it is (exit 3).
  try {
    const OutputFolder folder(path);
    const std::string probe = marked_name(path.filename().native(), probe_marker, {});
    ::unlinkat(folder.fd(), probe.c_str(), 0);  // left by a dead process of this host, our PID
    const PartialFileGuard guard(folder.fd(), probe);  // a stop signal now removes it too
    const int fd =
        ::openat(folder.fd(), probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0)
      throw RuntimeFailure("cannot create files in folder '" + folder.path().string() +
                           "': " + std::strerror(errno));
    ::close(fd);
    ::unlinkat(folder.fd(), probe.c_str(), 0);
    remove_stale_partials_in(folder.fd());
  } catch (const RuntimeFailure& e) {
    throw RuntimeFailure(name + ": " + e.what());
  }
}

}  // namespace psfsim

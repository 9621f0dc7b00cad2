#include "psfsim/backend_plugin.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>

#include "psfsim/errors.hpp"

namespace psfsim::plugin {
namespace {
namespace fs = std::filesystem;

// True when `file` lies inside the folder `tree`, both with their links resolved.
bool inside(const fs::path& file, const fs::path& tree) {
  std::error_code ec;
  const fs::path f = fs::canonical(file, ec);
  if (ec) return false;
  const fs::path t = fs::canonical(tree, ec);
  if (ec) return false;
  const auto [end, _] = std::mismatch(t.begin(), t.end(), f.begin(), f.end());
  return end == t.end();
}

// Whether this code runs from a program or module inside the build tree. An installed copy
// of the program must not look in the folder it was built in: on another machine anyone may
// be able to make that folder, and with it a library that psfsim would run.
bool runs_from(const std::string& build_tree) {
  if (build_tree.empty()) return false;
  Dl_info info{};
  // The module (the Python extension, say) or program that holds this function.
  if (dladdr(reinterpret_cast<const void*>(&runs_from), &info) != 0 && info.dli_fname != nullptr &&
      std::strchr(info.dli_fname, '/') != nullptr && inside(info.dli_fname, build_tree))
    return true;
  return inside("/proc/self/exe", build_tree);
}

// The loader's text without the path it opened, and whether it says that a library the
// plugin needs is missing ("PATH: libcufft.so.12: cannot open shared object file: No such
// file or directory" -> "libcufft.so.12 not found").
struct LoaderReason {
  std::string text;
  bool library_missing = false;
};

LoaderReason loader_reason(const std::string& path, const char* error) {
  LoaderReason out{error != nullptr ? error : "unknown error"};
  std::string& why = out.text;
  if (why.rfind(path + ": ", 0) == 0) why.erase(0, path.size() + 2);
  const std::string missing = ": cannot open shared object file: No such file or directory";
  if (const auto at = why.find(missing);
      at != std::string::npos && at + missing.size() == why.size()) {
    why = why.substr(0, at) + " not found";
    out.library_missing = true;
  }
  for (char& c : why)
    if (c == '\n' || c == '\r') c = ' ';
  return out;
}

std::string joined(const std::vector<std::string>& folders) {
  std::string out;
  for (std::size_t i = 0; i < folders.size(); ++i)
    out += (i == 0 ? "" : i + 1 == folders.size() ? " or " : ", ") + folders[i];
  return out.empty() ? "no folder" : out;
}

// The stand-in entry of a backend whose plugin cannot be used: it says why, in one line, to
// every question, and "auto" passes it by.
BackendEntry unusable(const Request& request, const std::string& why,
                      const std::vector<std::string>& details) {
  BackendEntry e;
  e.name = request.backend;
  e.summary = request.summary + " (plugin " + request.file + " not loaded)";
  e.compiled = false;
  e.site = request.site;
  e.unusable_reason = [why] { return why; };
  e.create = [name = request.backend, why](const PsfPlan&) -> std::unique_ptr<Backend> {
    throw RuntimeFailure(name + " backend: " + why);
  };
  e.describe = [details] { return details; };
  return e;
}

// The plugin's entry, with the file it came from named last in `psfsim info` (the
// backend's own lines first, as where it is linked in).
BackendEntry named(BackendEntry entry, const std::string& path) {
  entry.describe = [inner = std::move(entry.describe), path] {
    std::vector<std::string> lines;
    if (inner) lines = inner();
    lines.push_back("plugin " + path);
    return lines;
  };
  return entry;
}

BackendEntry open_plugin(const Request& request, const std::string& path) {
  const std::string plugin = "plugin " + path;
  // Never closed: the backend's entry, and whatever its libraries set up, live as long as
  // the process.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const LoaderReason loader = loader_reason(path, dlerror());
    std::string why = plugin + " cannot be loaded: " + loader.text;
    if (loader.library_missing && !request.libraries_hint.empty())
      why += " (" + request.libraries_hint + ")";
    return unusable(request, why, {why});
  }
  void* symbol = dlsym(handle, entry_symbol);
  if (symbol == nullptr) {
    const std::string why =
        plugin + " is not a psfsim backend plugin (it has no " + entry_symbol + ")";
    return unusable(request, why, {why});
  }
  const auto entry_function = reinterpret_cast<psfsim_backend_plugin_entry_t>(symbol);
  const Handshake host = this_side();
  Handshake theirs;
  BackendEntry entry;
  const int status = entry_function(&host, &theirs, &entry);
  if (status == handshake_differs || (status == entry_filled && entry.name != request.backend)) {
    const std::string version = theirs.version != nullptr ? theirs.version : "unknown";
    std::string why;
    if (status == entry_filled)
      why = plugin + " holds the backend " + entry.name + ", not " + request.backend;
    else if (version != host.version || theirs.abi != host.abi)
      why = plugin + " belongs to psfsim " + version + " (plugin ABI " +
            std::to_string(theirs.abi) + "), this psfsim is " + host.version + " (ABI " +
            std::to_string(host.abi) + "): install the " + request.package + " of this version";
    else
      why = plugin + " was built from other psfsim " + version +
            " sources than this psfsim: rebuild it with this one";
    return unusable(request, why, {why});
  }
  if (status != entry_filled) {
    const std::string why = plugin + " could not make its backend's entry";
    return unusable(request, why, {why});
  }
  return named(std::move(entry), path);
}

}  // namespace

std::vector<std::string> search_folders(const std::string& build_tree,
                                        const std::string& build_folder,
                                        const std::string& installed_folder) {
  std::vector<std::string> folders;
  const auto add = [&folders](const std::string& folder) {
    if (!folder.empty() && std::find(folders.begin(), folders.end(), folder) == folders.end())
      folders.push_back(folder);
  };
  if (const char* path = std::getenv("PSFSIM_PLUGIN_PATH"); path != nullptr) {
    const std::string text = path;
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = std::min(text.find(':', start), text.size());
      add(text.substr(start, end - start));
      start = end + 1;
    }
  }
  if (runs_from(build_tree)) add(build_folder);
  add(installed_folder);
  return folders;
}

BackendEntry load(const Request& request, const std::vector<std::string>& folders) {
  for (const std::string& folder : folders) {
    const fs::path path = fs::path(folder) / request.file;
    std::error_code ec;
    // The first folder that holds the file decides: a plugin that fails there is reported,
    // not passed over for an older one further down the list.
    if (fs::exists(path, ec)) return open_plugin(request, path.string());
  }
  const std::string where = joined(folders);
  return unusable(request,
                  "plugin " + request.file + " not installed (package " + request.package +
                      "; looked in " + where + ")",
                  {"install the package " + request.package +
                   ", or name the plugin's folder in PSFSIM_PLUGIN_PATH"});
}

}  // namespace psfsim::plugin

#include "psfsim/shared_library.hpp"

#include <dlfcn.h>

#include "psfsim/errors.hpp"

namespace psfsim {

SharedLibrary::SharedLibrary(const std::vector<std::string>& candidates, const std::string& purpose,
                             bool own_copy)
    : name_(candidates.empty() ? std::string("(no library named)") : candidates.front()) {
  if (own_copy)
    for (const std::string& candidate : candidates)
      if (void* loaded = dlopen(candidate.c_str(), RTLD_NOW | RTLD_NOLOAD); loaded != nullptr) {
        dlclose(loaded);  // the reference RTLD_NOLOAD took
        // A path (not a soname) for the new namespace, whose search starts afresh.
        for (const std::string& path : candidates)
          if (path.find('/') != std::string::npos &&
              (handle_ = dlmopen(LM_ID_NEWLM, path.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr)
            return;
        break;  // no path opened there: share the loaded one
      }
  for (const std::string& candidate : candidates)
    if ((handle_ = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) return;
  const char* why = dlerror();
  throw RuntimeFailure("cannot open " + name_ + " (" + purpose + ")" +
                       (why != nullptr ? std::string(": ") + why : std::string()));
}

void* SharedLibrary::symbol(const char* name) const {
  void* found = dlsym(handle_, name);
  if (found == nullptr) throw RuntimeFailure(name_ + " has no " + name);
  return found;
}

}  // namespace psfsim

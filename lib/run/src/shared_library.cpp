#include "psfsim/shared_library.hpp"

#include <dlfcn.h>

#include "psfsim/errors.hpp"

namespace psfsim {

SharedLibrary::SharedLibrary(const std::vector<std::string>& candidates, const std::string& purpose)
    : name_(candidates.empty() ? std::string("(no library named)") : candidates.front()) {
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

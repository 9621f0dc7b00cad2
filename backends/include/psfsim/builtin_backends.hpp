#pragma once
// The composition root: the registry of every backend compiled into this build. It lives
// above lib/ and the backends, so that lib/ depends on none of them.
#include "psfsim/backend_registry.hpp"

namespace psfsim {

// Every backend compiled into this binary, GPU first ("auto" prefers a usable GPU).
[[nodiscard]] const BackendRegistry& builtin_backends();

}  // namespace psfsim

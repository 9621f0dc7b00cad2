#pragma once
// The commit this build was made from (docs/install.md): recorded by `psfsim info`,
// `--version` and every output file. It is read when the build runs, not when CMake
// configures, so a rebuild after a pull or a commit records the code it compiled.

namespace psfsim {

// A 12-digit abbreviated hash, "-dirty" appended where tracked files differed from it; the
// value given as PSFSIM_GIT_COMMIT; or "unknown".
[[nodiscard]] const char* git_commit() noexcept;

}  // namespace psfsim

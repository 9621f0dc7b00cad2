# Run by the build (cmake -P), at every build: writes OUTPUT, the source that defines
# psfsim::git_commit(), with the commit the sources are at now, so that a rebuild after a
# pull or a commit records the code it compiled. The file is rewritten only when its text
# changes, so an unchanged commit recompiles nothing.
#
#   cmake -DSOURCE_DIR=<top> -DOUTPUT=<file.cpp> [-DFIXED_COMMIT=<hash>] -P psfsim_commit.cmake
#
# FIXED_COMMIT (PSFSIM_GIT_COMMIT, for a build from a source archive) wins. Otherwise the
# commit is git's when SOURCE_DIR is the top of a git checkout (not a folder unpacked inside
# another project's checkout), with "-dirty" where tracked files differ from it, and
# "unknown" where there is no such checkout.
set(commit "unknown")
if(NOT FIXED_COMMIT STREQUAL "")
  set(commit "${FIXED_COMMIT}")
else()
  find_program(GIT_EXECUTABLE git)
  if(GIT_EXECUTABLE)
    execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --show-toplevel
                    WORKING_DIRECTORY "${SOURCE_DIR}"
                    OUTPUT_VARIABLE top OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE rc ERROR_QUIET)
    if(rc EQUAL 0)
      file(REAL_PATH "${top}" top)
      file(REAL_PATH "${SOURCE_DIR}" source_top)
      if(top STREQUAL source_top)
        # --exclude='*': the hash even where tags exist; --dirty refreshes the index first.
        execute_process(COMMAND "${GIT_EXECUTABLE}" describe --always --abbrev=12 --dirty
                                --exclude=*
                        WORKING_DIRECTORY "${SOURCE_DIR}"
                        OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE
                        RESULT_VARIABLE rc ERROR_QUIET)
        if(rc EQUAL 0 AND NOT described STREQUAL "")
          set(commit "${described}")
        endif()
      endif()
    endif()
  endif()
endif()
file(CONFIGURE OUTPUT "${OUTPUT}" CONTENT [[
// Generated at build time by cmake/psfsim_commit.cmake.
#include "psfsim/build_commit.hpp"

namespace psfsim {
const char* git_commit() noexcept { return "@commit@"; }
}  // namespace psfsim
]] @ONLY)

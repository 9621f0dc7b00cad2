# The commit that `psfsim info`, `--version` and every output file record. A build from a
# source archive passes it: -DPSFSIM_GIT_COMMIT=<hash>. Left empty, it is read from git at
# configure time when the source folder is the top of a git checkout (not a folder unpacked
# inside another project's checkout), and is "unknown" otherwise.
set(PSFSIM_GIT_COMMIT "" CACHE STRING
    "Commit recorded in the binary (empty: read from git at configure time)")
set(PSFSIM_COMMIT "unknown")
if(NOT PSFSIM_GIT_COMMIT STREQUAL "")
  set(PSFSIM_COMMIT "${PSFSIM_GIT_COMMIT}")
else()
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --show-toplevel --short=12 HEAD
                    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
                    OUTPUT_VARIABLE _git_out OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _git_rc ERROR_QUIET)
    if(_git_rc EQUAL 0)
      string(REPLACE "\n" ";" _git_out "${_git_out}")
      list(GET _git_out 0 _git_top)
      list(GET _git_out 1 _git_commit)
      file(REAL_PATH "${_git_top}" _git_top)
      file(REAL_PATH "${CMAKE_CURRENT_SOURCE_DIR}" _source_top)
      if(_git_top STREQUAL _source_top)
        set(PSFSIM_COMMIT "${_git_commit}")
      endif()
    endif()
  endif()
endif()
message(STATUS "psfsim commit: ${PSFSIM_COMMIT}")

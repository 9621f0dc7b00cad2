# The commit that `psfsim info`, `--version` and every output file record
# (psfsim::git_commit()). A build from a source archive passes it:
# -DPSFSIM_GIT_COMMIT=<hash>. Left empty, each build reads it from git
# (cmake/psfsim_commit.cmake, run by the target psfsim_commit below), so that it follows the
# checkout without CMake configuring again.
set(PSFSIM_GIT_COMMIT "" CACHE STRING
    "Commit recorded in the binary (empty: read from git at each build)")

# Defines psfsim_commit, the step that writes OUTPUT before the targets that compile it.
function(psfsim_add_commit_step output)
  add_custom_target(psfsim_commit
    COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DOUTPUT=${output}
            "-DFIXED_COMMIT=${PSFSIM_GIT_COMMIT}" -P ${PROJECT_SOURCE_DIR}/cmake/psfsim_commit.cmake
    BYPRODUCTS ${output}
    COMMENT "The commit the build records"
    VERBATIM)
endfunction()

# cmake/psfsim_commit.cmake, the build step that records the commit, on a git repository
# made for the test in WORK (a fresh folder it owns):
#   cmake -DSCRIPT=<psfsim_commit.cmake> -DWORK=<folder> -P build_commit_test.cmake
# Checks: the checkout's 12-digit hash, with a tag present; "-dirty" once a tracked file
# changes; the fixed commit winning; "unknown" below the checkout's top and outside any; and
# an unchanged commit leaving the file untouched (its time set far back stays).
find_program(GIT git)
if(NOT GIT)
  message("SKIPPED: no git program to make a repository with")
  return()
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/repo/sub" "${WORK}/plain")
set(repo "${WORK}/repo")
set(out "${WORK}/commit.cpp")

function(git)
  execute_process(COMMAND "${GIT}" -c user.name=psfsim-test -c user.email=test@psfsim.invalid
                          -c init.defaultBranch=main -c tag.gpgSign=false
                          -c commit.gpgSign=false ${ARGN}
                  WORKING_DIRECTORY "${repo}" RESULT_VARIABLE rc OUTPUT_VARIABLE text
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "git ${ARGN}: ${err}")
  endif()
  set(git_out "${text}" PARENT_SCOPE)
endfunction()

# The commit the script writes for SOURCE_DIR and FIXED_COMMIT.
function(recorded source fixed)
  execute_process(COMMAND "${CMAKE_COMMAND}" -DSOURCE_DIR=${source} -DOUTPUT=${out}
                          -DFIXED_COMMIT=${fixed} -P "${SCRIPT}"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SCRIPT} failed: ${err}")
  endif()
  file(READ "${out}" text)
  if(NOT text MATCHES "return \"([^\"]*)\";")
    message(FATAL_ERROR "${out} defines no commit:\n${text}")
  endif()
  set(commit "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

function(expect what value wanted)
  if(NOT value STREQUAL wanted)
    message(FATAL_ERROR "${what}: recorded '${value}', expected '${wanted}'")
  endif()
  message(STATUS "${what}: ${value}")
endfunction()

git(init -q)
file(WRITE "${repo}/a.txt" "one\n")
git(add a.txt)
git(commit -q -m first)
git(tag v9.9.9)
git(rev-parse --short=12 HEAD)
set(hash "${git_out}")

recorded("${repo}" "")
expect("a clean checkout with a tag" "${commit}" "${hash}")

execute_process(COMMAND touch -d @1000000000 "${out}")
file(TIMESTAMP "${out}" before "%s" UTC)
recorded("${repo}" "")
file(TIMESTAMP "${out}" after "%s" UTC)
expect("the file's time after an unchanged commit" "${after}" "${before}")

file(WRITE "${repo}/a.txt" "two\n")
recorded("${repo}" "")
expect("a tracked file changed" "${commit}" "${hash}-dirty")

recorded("${repo}" "215265668e88")
expect("a fixed commit" "${commit}" "215265668e88")

recorded("${repo}/sub" "")
expect("a folder below the checkout's top" "${commit}" "unknown")

recorded("${WORK}/plain" "")
expect("a folder that is no checkout's top" "${commit}" "unknown")

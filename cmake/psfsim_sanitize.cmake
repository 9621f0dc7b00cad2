# Sanitized builds, for every target of this build (the CUDA backend excepted: nvcc's host
# code and the CUDA runtime do not run under ASan, so configure these with PSFSIM_CUDA=OFF).
#   PSFSIM_SANITIZE=address,undefined   what -fsanitize= gets; CI runs the unit tests so
#   PSFSIM_FUZZ=ON                      the libFuzzer targets of fuzz/ (Clang only), with
#                                       address and undefined on everything they link
set(PSFSIM_SANITIZE "" CACHE STRING "Sanitizers for -fsanitize=, e.g. address,undefined")
option(PSFSIM_FUZZ "Build the libFuzzer targets in fuzz/ (Clang)" OFF)

if(PSFSIM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "PSFSIM_FUZZ needs Clang's libFuzzer: configure with CXX=clang++ "
                        "CC=clang (Debian package clang)")
  endif()
  set(PSFSIM_SANITIZE "address,undefined")
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>")
endif()

if(PSFSIM_SANITIZE)
  if(PSFSIM_HAVE_CUDA)
    message(FATAL_ERROR "PSFSIM_SANITIZE: configure with -DPSFSIM_CUDA=OFF (the CUDA runtime "
                        "does not run under the sanitizers)")
  endif()
  # Every finding fails: no recovery, so a test under UBSan fails instead of printing.
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${PSFSIM_SANITIZE};-fno-omit-frame-pointer;-fno-sanitize-recover=all>")
  add_link_options("-fsanitize=${PSFSIM_SANITIZE}")
  message(STATUS "psfsim: sanitizers ${PSFSIM_SANITIZE}")
endif()

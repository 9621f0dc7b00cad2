# The warning flags of every target in this build, in one INTERFACE target. Each target links
# it PRIVATE, through $<BUILD_INTERFACE:...>, so that the installed package never passes
# them on to a consumer. PSFSIM_WERROR (CI turns it on) makes host C++ warnings errors;
# nvcc gets -Wall for the host side of the .cu files only, never -Werror.
option(PSFSIM_WERROR "Treat host C++ compiler warnings as errors" OFF)

add_library(psfsim_warnings INTERFACE)
target_compile_options(psfsim_warnings INTERFACE
  "$<$<COMPILE_LANGUAGE:CXX>:-Wall;-Wextra;-Wpedantic>"
  # -Wno-restrict: GCC 12 reports false positives inside libstdc++ string concatenation.
  "$<$<COMPILE_LANG_AND_ID:CXX,GNU>:-Wno-restrict>"
  "$<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${PSFSIM_WERROR}>>:-Werror>"
  "$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>")

# Links the warning flags into each of the given targets, privately and for this build only.
function(psfsim_use_warnings)
  foreach(target IN LISTS ARGN)
    target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:psfsim_warnings>)
  endforeach()
endfunction()

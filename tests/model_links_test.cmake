# The model layer brings in neither HDF5 nor CFITSIO (lib/CMakeLists.txt):
#   cmake -DLINKS=<file> -DPROGRAM=<program> -P model_links_test.cmake
# LINKS lists every library a link of psfsim_model takes, transitively, as CMake resolved
# them when the build was configured (tests/CMakeLists.txt); PROGRAM is a program linked
# with psfsim_model alone, whose shared libraries the loader must not list either.
set(forbidden "hdf5|cfitsio|fitsio")
file(STRINGS "${LINKS}" links)
if(NOT links)
  message(FATAL_ERROR "${LINKS}: no libraries listed (psfsim_model itself should be)")
endif()
foreach(link IN LISTS links)
  string(TOLOWER "${link}" lower)
  if(lower MATCHES "${forbidden}")
    message(FATAL_ERROR "psfsim_model brings ${link} into the link (${LINKS}); the model "
                        "layer must link neither HDF5 nor CFITSIO")
  endif()
endforeach()
execute_process(COMMAND ldd "${PROGRAM}" OUTPUT_VARIABLE loaded RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ldd ${PROGRAM} failed (${rc})")
endif()
string(TOLOWER "${loaded}" lower)
if(lower MATCHES "lib(${forbidden})[^ ]*")
  message(FATAL_ERROR "${PROGRAM}, linked with psfsim_model alone, loads ${CMAKE_MATCH_0}")
endif()
list(LENGTH links count)
message(STATUS "psfsim_model links ${count} libraries, none of them HDF5 or CFITSIO")

# The Python module (python/, docs/python.md): pybind11 and DLPack's header, for the Python
# that the tests use. AUTO builds it when both and the interpreter's headers are found.
set(PSFSIM_PYTHON AUTO CACHE STRING "Build the Python module psfsim: AUTO (when pybind11, DLPack and the Python headers are found), ON or OFF")
set_property(CACHE PSFSIM_PYTHON PROPERTY STRINGS AUTO ON OFF)

set(PSFSIM_HAVE_PYTHON OFF)
if(NOT PSFSIM_PYTHON STREQUAL "OFF")
  # Debian's python3 holds NumPy; a pyenv python3 earlier on PATH does not.
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 COMPONENTS Interpreter Development.Module)
  if(Python3_FOUND)
    set(PYBIND11_FINDPYTHON ON)
    find_package(pybind11 CONFIG QUIET)
  endif()
  find_path(PSFSIM_DLPACK_INCLUDE_DIR dlpack/dlpack.h)
  if(Python3_FOUND AND pybind11_FOUND AND PSFSIM_DLPACK_INCLUDE_DIR)
    set(PSFSIM_HAVE_PYTHON ON)
  elseif(PSFSIM_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "PSFSIM_PYTHON=ON but the Python module cannot be built: it needs the "
                        "Python headers, pybind11 and dlpack/dlpack.h (Debian python3-dev, "
                        "pybind11-dev, libdlpack-dev)")
  else()
    message(STATUS "Python module not built: install python3-dev pybind11-dev libdlpack-dev")
  endif()
endif()
# The module links the static libraries into one shared object.
if(PSFSIM_HAVE_PYTHON)
  set(CMAKE_POSITION_INDEPENDENT_CODE ON)
endif()

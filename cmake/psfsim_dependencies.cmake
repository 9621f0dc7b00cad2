# Debian's packages: libfftw3-dev, libhdf5-dev, libcli11-dev, libtomlplusplus-dev (see README).
include(psfsim_fftw)
if(NOT PSFSIM_FFTW3_FOUND)
  message(FATAL_ERROR "FFTW 3 (fftw3 and fftw3f through pkg-config, with libfftw3_omp and "
                      "libfftw3f_omp) not found: install pkg-config and libfftw3-dev")
endif()
find_package(OpenMP REQUIRED COMPONENTS CXX)
find_package(HDF5 REQUIRED COMPONENTS C HL)  # HL: dimension scales on /psf
# CFITSIO reads FITS pupil maps (Debian: libcfitsio-dev). GLOBAL: the static core passes it
# on to whatever links it; psfsimConfig.cmake.in repeats the lookup for consumers.
find_package(PkgConfig REQUIRED)
pkg_check_modules(PSFSIM_CFITSIO REQUIRED IMPORTED_TARGET GLOBAL cfitsio)
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE ${CLI11_INCLUDE_DIR})
endif()
# toml++ 3 (Debian: libtomlplusplus-dev) reads and writes the config files, header-only: the
# binary needs no libtomlplusplus3 at run time, and the fuzzer's sanitizers see the parser it
# runs.
find_package(tomlplusplus 3 CONFIG QUIET)
if(NOT tomlplusplus_FOUND)
  message(FATAL_ERROR "toml++ 3 (tomlplusplusConfig.cmake) not found: install "
                      "libtomlplusplus-dev")
endif()
get_target_property(PSFSIM_TOMLPLUSPLUS_INCLUDE tomlplusplus::tomlplusplus
                    INTERFACE_INCLUDE_DIRECTORIES)
add_library(psfsim_tomlplusplus INTERFACE)
target_include_directories(psfsim_tomlplusplus SYSTEM INTERFACE ${PSFSIM_TOMLPLUSPLUS_INCLUDE})
# std::to_chars for floats (GCC 11 and later): the effective configuration's numbers in their
# shortest form that reads back (0.1, not 0.10000000000000001), as psfsim prints numbers.
target_compile_definitions(psfsim_tomlplusplus INTERFACE TOML_HEADER_ONLY=1 TOML_FLOAT_CHARCONV=1)
# MPI (Debian: libopenmpi-dev, openmpi-bin) for `mpirun -n R psfsim run` (docs/scaling.md).
# Only the executable links it; the core library and its installed package do not.
set(PSFSIM_HAVE_MPI OFF)
if(NOT PSFSIM_MPI STREQUAL "OFF")
  find_package(MPI COMPONENTS CXX)
  if(MPI_CXX_FOUND)
    set(PSFSIM_HAVE_MPI ON)
  elseif(PSFSIM_MPI STREQUAL "ON")
    message(FATAL_ERROR "PSFSIM_MPI=ON but MPI was not found: install libopenmpi-dev")
  else()
    message(STATUS "No MPI found: building without mpirun support (install libopenmpi-dev)")
  endif()
endif()

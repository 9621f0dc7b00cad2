# FFTW 3 in double and single precision with their OpenMP threading libraries, as one
# imported target, psfsim::fftw3 (Debian: libfftw3-dev). Included by the build and by the
# installed psfsimConfig.cmake, so that a consumer links exactly what the static libraries
# need. Sets PSFSIM_FFTW3_FOUND; the includer decides whether a miss is fatal.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(FFTW3 QUIET IMPORTED_TARGET fftw3 fftw3f)
endif()
find_library(PSFSIM_FFTW3_OMP_LIB NAMES fftw3_omp HINTS ${FFTW3_LIBRARY_DIRS})
find_library(PSFSIM_FFTW3F_OMP_LIB NAMES fftw3f_omp HINTS ${FFTW3_LIBRARY_DIRS})
if(FFTW3_FOUND AND PSFSIM_FFTW3_OMP_LIB AND PSFSIM_FFTW3F_OMP_LIB)
  set(PSFSIM_FFTW3_FOUND TRUE)
  if(NOT TARGET psfsim::fftw3)
    add_library(psfsim::fftw3 INTERFACE IMPORTED)
    target_link_libraries(psfsim::fftw3 INTERFACE
      PkgConfig::FFTW3 ${PSFSIM_FFTW3_OMP_LIB} ${PSFSIM_FFTW3F_OMP_LIB})
  endif()
else()
  set(PSFSIM_FFTW3_FOUND FALSE)
endif()

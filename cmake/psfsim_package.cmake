# `cpack -G DEB` makes a Debian package of each install component (docs/install.md):
#   psfsim          the program and the example configurations; its dependencies are the
#                   shared libraries the binary links, as dpkg-shlibdeps (dpkg-dev) names them
#   psfsim-dev      headers, static libraries and the CMake package, for find_package(psfsim)
#   psfsim-cuda     with -DPSFSIM_CUDA_PLUGIN=ON: the CUDA backend as a plugin that psfsim
#                   opens at run time, ${libdir}/psfsim/libpsfsim-cuda.so
#   python3-psfsim  the Python module, where the build has it (PSFSIM_HAVE_PYTHON)
# A build that links the CUDA backend into psfsim (-DPSFSIM_CUDA_PLUGIN=OFF) makes none:
# NVIDIA's libraries are not Debian packages, so its binary could not declare them
# (cmake/psfsim_cpack_checks.cmake). With the plugin, only psfsim-cuda needs them, and it
# declares none of them either, so that it installs anywhere: where they are missing, psfsim
# reports the cuda backend unusable, with the loader's reason, and runs on the CPU.
set(CPACK_PACKAGE_NAME psfsim)
set(CPACK_PACKAGE_VENDOR "psfsim")
set(CPACK_PACKAGE_CONTACT "psfsim maintainers <maintainers@users.noreply.a-seed-d01141c7.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "optical point-spread function simulator (FFTW, HDF5)")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "psfsim builds a pupil (aperture, Seidel and Zernike phase \
terms), zero-pads it, takes a 2D FFT and writes the point-spread functions with their \
parameters and timings to HDF5.")
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_COMPONENTS_ALL Runtime Development)
if(PSFSIM_HAVE_CUDA_PLUGIN)
  list(APPEND CPACK_COMPONENTS_ALL CudaPlugin)
endif()
if(PSFSIM_HAVE_PYTHON)
  list(APPEND CPACK_COMPONENTS_ALL Python)
endif()

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME psfsim)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# The CPU MFT opens OpenBLAS at run time (cpu/src/openblas_library.cpp): no link names it.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libopenblas0")
# --compression lz4 and zstd load these HDF5 filter plugins at run time.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "hdf5-filter-plugin, hdf5-filter-plugin-blosc-serial")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME psfsim-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION "psfsim library: headers, static libraries and \
the CMake package (find_package(psfsim), target psfsim::psfsim)")
# What psfsimConfig.cmake finds for a consumer's link (the static libraries' dependencies).
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "libhdf5-dev, libfftw3-dev, libcfitsio-dev, pkg-config")

if(PSFSIM_HAVE_CUDA_PLUGIN)
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_SUGGESTS psfsim-cuda)
  set(CPACK_DEBIAN_CUDAPLUGIN_PACKAGE_NAME psfsim-cuda)
  set(CPACK_COMPONENT_CUDAPLUGIN_DESCRIPTION "psfsim's CUDA backend (cuFFT, cuBLAS) as a plugin \
that psfsim opens at run time. It needs NVIDIA's driver and CUDA ${CUDAToolkit_VERSION_MAJOR} \
libraries (cuFFT, the CUDA runtime, cuBLAS for the MFT), which no Debian package provides and \
which this package does not declare: install them from NVIDIA. Where they are missing, \
`psfsim info` says why and psfsim runs on the CPU.")
  # The plugin is built with psfsim from one tree: it needs that psfsim, and of the system's
  # libraries only those psfsim itself links (scripts/check-deb.sh checks). dpkg-shlibdeps
  # would stop at cuFFT and the CUDA runtime, which belong to no Debian package.
  set(CPACK_DEBIAN_CUDAPLUGIN_PACKAGE_DEPENDS "psfsim (= ${PROJECT_VERSION})")
  set(CPACK_DEBIAN_CUDAPLUGIN_PACKAGE_SHLIBDEPS OFF)
endif()
if(PSFSIM_HAVE_PYTHON)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-psfsim)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  set(CPACK_COMPONENT_PYTHON_DESCRIPTION "psfsim for Python: psfsim.psf, Simulator, run and \
open (docs/python.md), the same library as the psfsim program in one extension module.")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SHLIBDEPS ON)
  # The extension is built for one Python version; OpenBLAS is opened at run time, as above.
  set(_psfsim_python ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR})
  math(EXPR _psfsim_python_next "${Python3_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
      "python3 (>= ${_psfsim_python}), python3 (<< ${Python3_VERSION_MAJOR}.${_psfsim_python_next}), python3-numpy, libopenblas0")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_RECOMMENDS
      "python3-h5py, python3-xarray, hdf5-filter-plugin, hdf5-filter-plugin-blosc-serial")
  if(PSFSIM_HAVE_CUDA_PLUGIN)
    set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS psfsim-cuda)
  endif()
endif()

set(CPACK_PSFSIM_HAVE_CUDA ${PSFSIM_HAVE_CUDA})
set(CPACK_PSFSIM_CUDA_PLUGIN ${PSFSIM_HAVE_CUDA_PLUGIN})
set(CPACK_PSFSIM_HAVE_PYTHON ${PSFSIM_HAVE_PYTHON})
set(CPACK_PSFSIM_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/psfsim_cpack_checks.cmake)
include(CPack)

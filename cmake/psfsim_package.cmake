# `cpack -G DEB` makes two Debian packages from the install components (docs/install.md):
#   psfsim      the program and the example configurations; its dependencies are the shared
#               libraries the binary links, as dpkg-shlibdeps (dpkg-dev) names them
#   psfsim-dev  headers, static libraries and the CMake package, for find_package(psfsim)
# A .deb is made from a build with -DPSFSIM_CUDA=OFF: NVIDIA's libraries are not Debian
# packages, so a CUDA build's binary could not declare them (cmake/psfsim_cpack_checks.cmake).
set(CPACK_PACKAGE_NAME psfsim)
set(CPACK_PACKAGE_VENDOR "psfsim")
set(CPACK_PACKAGE_CONTACT "psfsim maintainers <maintainers@users.noreply.a-seed-d01141c7.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "optical point-spread function simulator (FFTW, HDF5)")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "psfsim builds a pupil (aperture, Seidel and Zernike phase \
terms), zero-pads it, takes a 2D FFT and writes the point-spread functions with their \
parameters and timings to HDF5.")
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_COMPONENTS_ALL Runtime Development)

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

set(CPACK_PSFSIM_HAVE_CUDA ${PSFSIM_HAVE_CUDA})
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/psfsim_cpack_checks.cmake)
include(CPack)

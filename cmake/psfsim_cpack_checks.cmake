# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE). A .deb declares its
# dependencies as Debian packages; the cuFFT and CUDA runtime libraries a CUDA build links
# are not Debian packages, so the .deb comes from a build without them (docs/install.md).
if(CPACK_GENERATOR STREQUAL "DEB" AND CPACK_PSFSIM_HAVE_CUDA)
  message(FATAL_ERROR "psfsim: make the .deb from a build configured with -DPSFSIM_CUDA=OFF "
                      "(see docs/install.md): this build links NVIDIA's libraries, which no "
                      "Debian package provides")
endif()

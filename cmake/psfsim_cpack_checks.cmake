# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE). A .deb declares its
# dependencies as Debian packages; the cuFFT and CUDA runtime libraries a CUDA build links
# are not Debian packages, so the .deb comes from a build where psfsim does not link them:
# one without CUDA, or one with the CUDA backend as a plugin (docs/install.md).
if(CPACK_GENERATOR STREQUAL "DEB" AND CPACK_PSFSIM_HAVE_CUDA AND NOT CPACK_PSFSIM_CUDA_PLUGIN)
  message(FATAL_ERROR "psfsim: make the .deb from a build configured with "
                      "-DPSFSIM_CUDA_PLUGIN=ON (the CUDA backend as the package psfsim-cuda) "
                      "or -DPSFSIM_CUDA=OFF (see docs/install.md): this build links NVIDIA's "
                      "libraries into psfsim, which no Debian package provides")
endif()
# psfsim looks for its plugin, and python3 for the module, where the build's prefix puts
# them: packaged under another prefix, neither would be found.
if(CPACK_GENERATOR STREQUAL "DEB" AND (CPACK_PSFSIM_CUDA_PLUGIN OR CPACK_PSFSIM_HAVE_PYTHON))
  if(DEFINED CPACK_PACKAGING_INSTALL_PREFIX)
    set(_psfsim_deb_prefix "${CPACK_PACKAGING_INSTALL_PREFIX}")
  else()
    set(_psfsim_deb_prefix /usr)
  endif()
  if(NOT CPACK_PSFSIM_INSTALL_PREFIX STREQUAL _psfsim_deb_prefix)
    message(FATAL_ERROR "psfsim: make the .deb from a build configured with "
                        "-DCMAKE_INSTALL_PREFIX=${_psfsim_deb_prefix} (this one has "
                        "${CPACK_PSFSIM_INSTALL_PREFIX}): the packages install there, and "
                        "psfsim looks for its CUDA plugin, and python3 for the module, under "
                        "the prefix the build was configured with")
  endif()
endif()

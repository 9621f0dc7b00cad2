# What `cmake --install` puts under the prefix, in components (one .deb package each):
#   Runtime      bin/psfsim and the example configurations, share/psfsim/configs/*.toml
#   Development  the headers, the static libraries and the CMake package: after
#                find_package(psfsim), one target, psfsim::psfsim, links all a program needs.
#   CudaPlugin   with -DPSFSIM_CUDA_PLUGIN=ON: the CUDA backend, lib/psfsim/libpsfsim-cuda.so
#   Python       the module psfsim (python/CMakeLists.txt), where it is built
include(CMakePackageConfigHelpers)
set(PSFSIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/psfsim)

# Whether the CUDA backend is linked into the programs and static libraries (not a plugin).
set(_psfsim_links_cuda OFF)
if(PSFSIM_HAVE_CUDA AND NOT PSFSIM_HAVE_CUDA_PLUGIN)
  set(_psfsim_links_cuda ON)
endif()
# The CUDA libraries live outside the loader's default path (/usr/local/cuda/lib64).
if(_psfsim_links_cuda)
  set_target_properties(psfsim PROPERTIES INSTALL_RPATH "${CUDAToolkit_LIBRARY_DIR}")
endif()
install(TARGETS psfsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT Runtime)
install(DIRECTORY configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/psfsim/configs
        COMPONENT Runtime FILES_MATCHING PATTERN "*.toml")

# The libraries under their exported names: psfsim::model, psfsim::run, psfsim::io (lib/'s
# layers) and psfsim::core (the three), psfsim::cpu, psfsim::cuda, psfsim::backends (the
# composition root), and psfsim_library as psfsim::psfsim, which links them all.
set(_psfsim_libraries psfsim_model psfsim_run psfsim_io psfsim_core psfsim_cpu psfsim_backends
                      psfsim_library)
set(_psfsim_include_dirs lib/model/include/ lib/run/include/ lib/io/include/ cpu/include/
                         backends/include/)
if(_psfsim_links_cuda)
  list(APPEND _psfsim_libraries psfsim_cuda)
  list(APPEND _psfsim_include_dirs cuda/include/)
endif()
foreach(library IN LISTS _psfsim_libraries)
  string(REPLACE "psfsim_" "" _export_name ${library})
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${_export_name})
endforeach()
set_target_properties(psfsim_library PROPERTIES EXPORT_NAME psfsim)
install(TARGETS ${_psfsim_libraries} EXPORT psfsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT Development)
install(DIRECTORY ${_psfsim_include_dirs} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT Development FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/lib/run/generated/psfsim/build_config.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/psfsim COMPONENT Development)

# The plugin, where the programs look for it (backends/CMakeLists.txt). It finds cuFFT and
# the CUDA runtime through its RUNPATH, the usual toolkit folder and the build's, then the
# loader's own paths; a package names none of NVIDIA's (docs/install.md).
if(PSFSIM_HAVE_CUDA_PLUGIN)
  set(_psfsim_plugin_rpath /usr/local/cuda/lib64)
  if(NOT CUDAToolkit_LIBRARY_DIR STREQUAL "/usr/local/cuda/lib64")
    list(APPEND _psfsim_plugin_rpath ${CUDAToolkit_LIBRARY_DIR})
  endif()
  set_target_properties(psfsim_cuda_plugin PROPERTIES INSTALL_RPATH "${_psfsim_plugin_rpath}")
  install(TARGETS psfsim_cuda_plugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/psfsim
          COMPONENT CudaPlugin)
endif()

install(EXPORT psfsimTargets NAMESPACE psfsim:: DESTINATION ${PSFSIM_INSTALL_CMAKEDIR}
        COMPONENT Development)
# The package finds the CUDA toolkit for a consumer's link only where the static libraries
# hold the backend: a plugin build's link none of CUDA (the template reads PSFSIM_HAVE_CUDA,
# set here for it alone).
function(_psfsim_write_config links_cuda)
  set(PSFSIM_HAVE_CUDA ${links_cuda})
  configure_package_config_file(cmake/psfsimConfig.cmake.in
    ${PROJECT_BINARY_DIR}/psfsimConfig.cmake INSTALL_DESTINATION ${PSFSIM_INSTALL_CMAKEDIR})
endfunction()
_psfsim_write_config(${_psfsim_links_cuda})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/psfsimConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/psfsimConfig.cmake
              ${PROJECT_BINARY_DIR}/psfsimConfigVersion.cmake
              cmake/psfsim_fftw.cmake
        DESTINATION ${PSFSIM_INSTALL_CMAKEDIR} COMPONENT Development)

# What `cmake --install` puts under the prefix, in two components (two .deb packages):
#   Runtime      bin/psfsim and the example configurations, share/psfsim/configs/*.toml
#   Development  the headers, the static libraries and the CMake package: after
#                find_package(psfsim), one target, psfsim::psfsim, links all a program needs.
include(CMakePackageConfigHelpers)
set(PSFSIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/psfsim)

# The CUDA libraries live outside the loader's default path (/usr/local/cuda/lib64).
if(PSFSIM_HAVE_CUDA)
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
if(PSFSIM_HAVE_CUDA)
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

install(EXPORT psfsimTargets NAMESPACE psfsim:: DESTINATION ${PSFSIM_INSTALL_CMAKEDIR}
        COMPONENT Development)
configure_package_config_file(cmake/psfsimConfig.cmake.in
  ${PROJECT_BINARY_DIR}/psfsimConfig.cmake INSTALL_DESTINATION ${PSFSIM_INSTALL_CMAKEDIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/psfsimConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/psfsimConfig.cmake
              ${PROJECT_BINARY_DIR}/psfsimConfigVersion.cmake
              cmake/psfsim_fftw.cmake
        DESTINATION ${PSFSIM_INSTALL_CMAKEDIR} COMPONENT Development)

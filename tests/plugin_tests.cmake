# The backend plugin loader (backends/backend_plugin.cpp), included at the end of
# tests/CMakeLists.txt: against fake plugins in every build, and against libpsfsim-cuda.so
# in a build with -DPSFSIM_CUDA_PLUGIN=ON.
#
# The fake plugins are linked as the real one is (cuda/CMakeLists.txt): hidden symbols, the
# entry alone exported, so that an error thrown inside one reaching the program's catch is
# tested here too.
add_library(psfsim_test_absent_library SHARED plugin/absent_library.cpp)
set_target_properties(psfsim_test_absent_library PROPERTIES
  OUTPUT_NAME psfsim-test-absent
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/plugin-absent)
set(_psfsim_fake_plugins "")
foreach(_kind usable stale other needs_absent no_entry)
  list(LENGTH _psfsim_fake_plugins _number)
  math(EXPR _number "${_number} + 1")
  set(_target psfsim_test_plugin_${_kind})
  add_library(${_target} MODULE plugin/fake_plugin.cpp)
  target_compile_definitions(${_target} PRIVATE FAKE_PLUGIN=${_number})
  target_include_directories(${_target} PRIVATE ${PROJECT_SOURCE_DIR}/backends/include
    $<TARGET_PROPERTY:psfsim_run,INTERFACE_INCLUDE_DIRECTORIES>)
  target_compile_features(${_target} PRIVATE cxx_std_20)
  set_target_properties(${_target} PROPERTIES CXX_VISIBILITY_PRESET hidden
                                              VISIBILITY_INLINES_HIDDEN ON
                                              LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/plugin-fakes)
  psfsim_use_warnings(${_target})
  list(APPEND _psfsim_fake_plugins ${_target})
  string(TOUPPER ${_kind} _kind_upper)
  target_compile_definitions(psfsim_tests PRIVATE
    PSFSIM_TEST_PLUGIN_${_kind_upper}="$<TARGET_FILE:${_target}>")
endforeach()
# Linked to the library, but not told where it is: the loader does not find it.
target_link_libraries(psfsim_test_plugin_needs_absent PRIVATE psfsim_test_absent_library)
set_target_properties(psfsim_test_plugin_needs_absent PROPERTIES SKIP_BUILD_RPATH ON)

target_sources(psfsim_tests PRIVATE backend_plugin_test.cpp)
add_dependencies(psfsim_tests ${_psfsim_fake_plugins})
target_compile_definitions(psfsim_tests PRIVATE PSFSIM_TEST_BUILD_TREE="${PROJECT_BINARY_DIR}")
if(PSFSIM_HAVE_CUDA_PLUGIN)
  target_compile_definitions(psfsim_tests PRIVATE
    PSFSIM_TEST_CUDA_PLUGIN_DIR="${PSFSIM_CUDA_PLUGIN_BUILD_DIR}"
    PSFSIM_TEST_CUDA_PLUGIN_INSTALL_DIR="${CMAKE_INSTALL_FULL_LIBDIR}/psfsim")
endif()

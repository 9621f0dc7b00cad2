// A library that one fake plugin links and that the test leaves where the loader does not
// look, so that opening the plugin fails as one without NVIDIA's libraries does.
extern "C" __attribute__((visibility("default"))) int psfsim_test_absent_library_function() {
  return 0;
}

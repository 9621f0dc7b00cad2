// The cuBLAS loader (cuda/src/cublas_library.cpp, over psfsim::SharedLibrary): it opens the
// library and binds every function it names, without needing a device.
#include <gtest/gtest.h>

#include <string>

#include "../../cuda/src/cublas_library.hpp"
#include "psfsim/errors.hpp"

namespace psfsim::cuda {
namespace {

TEST(CublasLoader, OpensTheLibraryAndBindsEveryFunction) {
  const CublasLibrary* library = nullptr;
  try {
    library = &cublas();
  } catch (const RuntimeFailure& e) {
    GTEST_SKIP() << "cuBLAS not loadable here: " << e.what();
  }
  EXPECT_NE(library->create, nullptr);
  EXPECT_NE(library->destroy, nullptr);
  EXPECT_NE(library->set_stream, nullptr);
  EXPECT_NE(library->set_workspace, nullptr);
  EXPECT_NE(library->cgemm_strided_batched, nullptr);
  EXPECT_NE(library->cgemm3m_strided_batched, nullptr);
  EXPECT_NE(library->zgemm_strided_batched, nullptr);
  EXPECT_NE(library->sgemm_strided_batched, nullptr);
  EXPECT_NE(library->dgemm_strided_batched, nullptr);
  EXPECT_STREQ(library->status_name(CUBLAS_STATUS_SUCCESS), "CUBLAS_STATUS_SUCCESS");
  EXPECT_EQ(&cublas(), library);  // opened once
  EXPECT_STREQ(cublas_status_name_if_open(CUBLAS_STATUS_NOT_INITIALIZED),
               "CUBLAS_STATUS_NOT_INITIALIZED");
}

}  // namespace
}  // namespace psfsim::cuda

#pragma once
// The second pass of a pupil's M x M transform whose first pass (cuFFT, FieldTransform)
// transformed only the N rows that hold the pupil: each column's M-point transform from its N
// nonzero values, in one kernel for power-of-two M. It writes the field as cuFFT's 2D
// transform lays it out, or only its squared modulus, which is all the metrics read.
#include <cuda_runtime_api.h>

#include "device_complex.hpp"

namespace psfsim::cuda {

struct ColumnPass {
  int samples = 0;  // N: the rows each frame's input holds
  int padded = 0;   // M
  int offset = 0;   // the field row that the input's first row is
  int frames = 0;
};

// M a power of two from 32 to 1024 (a column's points fit one block's registers twice over).
[[nodiscard]] bool column_pass_takes(int padded) noexcept;

// Raises the kernels' shared-memory limit where M needs more than 48 KB; once, before any
// launch or graph capture.
template <typename Real>
void prepare_column_pass(int padded);

// rows: frames x N x M, each row already transformed along its length; twiddles: exp(-2 pi i
// j / M) for j in [0, M), on the device. out: frames x M x M, the field (complex) or
// |X|^2 alone (Real).
template <typename Real, typename Out>
void launch_column_pass(const DeviceComplex<Real>* rows, const DeviceComplex<Real>* twiddles,
                        const ColumnPass& pass, Out* out, cudaStream_t stream);

}  // namespace psfsim::cuda

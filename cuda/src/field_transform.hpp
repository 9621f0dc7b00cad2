#pragma once
// The focal-plane field of each pupil: the unnormalized M x M transform of pupil fields whose
// only nonzero values are the N x N window at (offset, offset). For power-of-two M it takes
// two passes that skip the zero rows: cuFFT over each frame's N pupil rows alone, then one
// kernel over the columns (column_pass_kernel), which reads N values per column and can keep
// |X|^2 alone. cuFFT's 2D plan instead reads and writes all M rows in both of its passes. The
// pupil buffer then holds only the N pupil rows of each frame. Other M take one cuFFT 2D plan.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>

#include "column_pass_kernel.hpp"
#include "device_complex.hpp"
#include "device_memory.hpp"
#include "fft_plan.hpp"
#include "pupil_rows.hpp"

namespace psfsim::cuda {

template <typename Real>
class FieldTransform {
 public:
  using Complex = DeviceComplex<Real>;

  // `batch` frames a call: every call transforms that many.
  FieldTransform(int samples, int padded, int offset, long long batch, bool allow_split,
                 cudaStream_t stream);

  [[nodiscard]] const PupilRows& rows() const noexcept { return rows_; }
  // Complex values per frame of the input: rows x M.
  [[nodiscard]] std::size_t pupil_elements() const noexcept {
    return static_cast<std::size_t>(rows_.rows) * pass_.padded;
  }
  // batch frames of input to batch M x M focal-plane fields.
  void forward(const Complex* pupil, Complex* fields) const;
  // The same, writing |X|^2 only (split transforms).
  void forward_intensity(const Complex* pupil, Real* intensity) const;

  // Device memory beyond input and output: cuFFT's work area and, split, the row pass's
  // output. Asked before anything is allocated.
  [[nodiscard]] static std::size_t scratch_bytes(const PupilRows& rows, int samples, int padded,
                                                 long long batch);

 private:
  template <typename Out>
  void two_passes(const Complex* pupil, Out* out) const;

  ColumnPass pass_;  // N, M, the pupil's offset and the batch
  cudaStream_t stream_;
  PupilRows rows_;
  std::unique_ptr<FftPlan> plan_;  // 2D, or the row pass
  DeviceBuffer<Complex> row_transforms_;
  DeviceBuffer<Complex> twiddles_;
};

}  // namespace psfsim::cuda

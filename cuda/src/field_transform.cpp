#include "field_transform.hpp"

#include <stdexcept>

#include "column_twiddles.hpp"
#include "cuda_check.hpp"

namespace psfsim::cuda {

PupilRows PupilRows::choose(int samples, int padded, int offset, bool allow_split) noexcept {
  if (allow_split && samples < padded && column_pass_takes(padded)) return {true, samples, 0};
  return {false, padded, offset};
}

template <typename Real>
FieldTransform<Real>::FieldTransform(int samples, int padded, int offset, long long batch,
                                     bool allow_split, cudaStream_t stream)
    : pass_{samples, padded, offset, static_cast<int>(batch)},
      stream_(stream),
      rows_(PupilRows::choose(samples, padded, offset, allow_split)) {
  if (!rows_.split) {
    plan_ = std::make_unique<FftPlan>(FftShape{padded, batch}, precision_of<Real>, stream);
    return;
  }
  plan_ =
      std::make_unique<FftPlan>(FftShape{padded, batch * samples, 1}, precision_of<Real>, stream);
  row_transforms_ = DeviceBuffer<Complex>(static_cast<std::size_t>(batch) * pupil_elements());
  twiddles_ = column_twiddles<Real>(padded);
  prepare_column_pass<Real>(padded);
}

template <typename Real>
template <typename Out>
void FieldTransform<Real>::two_passes(const Complex* pupil, Out* out) const {
  plan_->forward(pupil, row_transforms_.data());
  launch_column_pass<Real>(row_transforms_.data(), twiddles_.data(), pass_, out, stream_);
}

template <typename Real>
void FieldTransform<Real>::forward(const Complex* pupil, Complex* fields) const {
  if (rows_.split) two_passes(pupil, fields);
  else plan_->forward(pupil, fields);
}

template <typename Real>
void FieldTransform<Real>::forward_intensity(const Complex* pupil, Real* intensity) const {
  if (!rows_.split) throw std::logic_error("field transform: intensity from a 2D plan");
  two_passes(pupil, intensity);
}

template <typename Real>
std::size_t FieldTransform<Real>::scratch_bytes(const PupilRows& rows, int samples, int padded,
                                                long long batch) {
  if (!rows.split) return FftPlan::work_bytes({padded, batch}, precision_of<Real>);
  return FftPlan::work_bytes({padded, batch * samples, 1}, precision_of<Real>) +
         static_cast<std::size_t>(batch) * samples * padded * sizeof(Complex) +
         static_cast<std::size_t>(padded) * sizeof(Complex);
}

template class FieldTransform<float>;
template class FieldTransform<double>;

}  // namespace psfsim::cuda

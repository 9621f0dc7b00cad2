#include "train_stage.hpp"

#include <algorithm>

#include "cuda_check.hpp"
#include "train_kernels.hpp"

namespace psfsim::cuda {
namespace {

int largest_pass(const ChannelTrain& channel) {
  int m = 0;
  for (const TrainStep& s : channel.steps)
    for (const MaskPass& p : s.passes) m = std::max(m, p.points);
  return m;
}

template <typename T>
DeviceBuffer<T> uploaded(const std::vector<T>& host) {
  DeviceBuffer<T> d(host.size());
  if (!host.empty())
    PSFSIM_CUDA_CHECK(
        cudaMemcpy(d.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename Complex>
std::vector<Complex> rounded(const std::vector<Complex128>& v) {
  using Real = decltype(Complex{}.x);
  std::vector<Complex> out;
  out.reserve(v.size());
  for (const Complex128& z : v)
    out.push_back(Complex{static_cast<Real>(z.real()), static_cast<Real>(z.imag())});
  return out;
}

}  // namespace

template <typename Real>
std::size_t TrainStage<Real>::bytes_per_frame(const ChannelTrain& channel, int samples) {
  const std::size_t n = samples;
  const std::size_t m = largest_pass(channel);
  return (2 * n * m + m * m + n * n) * sizeof(Complex);
}

template <typename Real>
std::size_t TrainStage<Real>::constant_bytes(const ChannelTrain& channel, int samples) {
  std::size_t bytes = 0;
  const std::size_t n = samples;
  for (const TrainStep& s : channel.steps) {
    bytes += s.stop.size() * sizeof(Real);
    for (const MaskPass& p : s.passes) {
      const std::size_t m = p.points;
      bytes += (2 * n * m + m * m) * sizeof(Complex);
    }
  }
  return bytes;
}

template <typename Real>
TrainStage<Real>::TrainStage(const ChannelTrain& channel, int samples, int frames)
    : samples_(samples) {
  for (const TrainStep& s : channel.steps) {
    Step step;
    step.stop = s.kind == TrainStep::Kind::stop;
    step.keep = static_cast<Real>(s.keep);
    if (step.stop) {
      std::vector<Real> mask(s.stop.begin(), s.stop.end());
      step.mask = uploaded(mask);
    }
    for (const MaskPass& p : s.passes)
      step.passes.push_back(Pass{p.points, uploaded(rounded<Complex>(p.forward)),
                                 uploaded(rounded<Complex>(p.inverse)),
                                 uploaded(rounded<Complex>(p.weights))});
    steps_.push_back(std::move(step));
  }
  const std::size_t n = samples, m = largest_pass(channel), f = frames;
  if (m > 0) {
    rows_ = DeviceBuffer<Complex>(f * n * m);
    focal_ = DeviceBuffer<Complex>(f * m * m);
    back_ = DeviceBuffer<Complex>(f * m * n);
    out_ = DeviceBuffer<Complex>(f * n * n);
  }
}

// In cuBLAS's column-major terms a row-major R x C matrix is the C x R of its transpose; per
// frame, with A the pass's m x N forward matrix and B = A^H its N x m inverse:
//   rows = P A^T (N x m)     as rows^T = A P^T, one product over the frames side by side;
//   F = A rows (m x m)       as F^T = rows^T A^T, batched over the frames;
//   F .*= G
//   back = F B^T (m x N)     as back^T = B F^T, batched;
//   L += B back (N x N)      as L^T = back^T B^T, batched, accumulating.
template <typename Real>
void TrainStage<Real>::issue(const BlasHandle& blas, Complex* fields, int count,
                             cudaStream_t stream) const {
  const int n = samples_;
  const long long n2 = static_cast<long long>(n) * n;
  for (const Step& s : steps_) {
    if (s.stop) {
      launch_multiply_real<Real>(fields, s.mask.data(), n2, count, stream);
      continue;
    }
    launch_scaled_copy<Real>(out_.data(), fields, s.keep, n2 * count, stream);
    for (const Pass& p : s.passes) {
      const int m = p.points;
      const long long nm = static_cast<long long>(n) * m;
      const long long mm = static_cast<long long>(m) * m;
      gemm_strided_batched<Real>(blas, m, count * n, n, {p.forward.data(), n, 0, true},
                                 {fields, n, 0, false}, rows_.data(), m, 0, 1);
      gemm_strided_batched<Real>(blas, m, m, n, {rows_.data(), m, nm, false},
                                 {p.forward.data(), n, 0, false}, focal_.data(), m, mm, count);
      launch_multiply_complex<Real>(focal_.data(), p.weights.data(), mm, count, stream);
      gemm_strided_batched<Real>(blas, n, m, m, {p.inverse.data(), m, 0, true},
                                 {focal_.data(), m, mm, false}, back_.data(), n, nm, count);
      gemm_strided_batched<Real>(blas, n, n, m, {back_.data(), n, nm, false},
                                 {p.inverse.data(), m, 0, false}, out_.data(), n, n2, count,
                                 ComplexProduct::four_real, true);
    }
    PSFSIM_CUDA_CHECK(cudaMemcpyAsync(fields, out_.data(),
                                      static_cast<std::size_t>(n2 * count) * sizeof(Complex),
                                      cudaMemcpyDeviceToDevice, stream));
  }
}

template class TrainStage<float>;
template class TrainStage<double>;

}  // namespace psfsim::cuda

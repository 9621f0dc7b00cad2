#include "train_stage.hpp"

#include <algorithm>

#include "cuda_check.hpp"
#include "train_kernels.hpp"

namespace psfsim::cuda {
namespace {

// The largest pass computed by products, and the largest by FFTs.
struct PassSizes {
  std::size_t matrices = 0, periodic = 0;
};
PassSizes largest_passes(const ChannelTrain& channel) {
  PassSizes sizes;
  for (const TrainStep& s : channel.steps)
    for (const MaskPass& p : s.passes) {
      std::size_t& m = p.periodic() ? sizes.periodic : sizes.matrices;
      m = std::max<std::size_t>(m, p.points);
    }
  return sizes;
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
  const PassSizes m = largest_passes(channel);
  const std::size_t focal = std::max(m.matrices, m.periodic);
  return (2 * n * m.matrices + focal * focal + n * n + m.periodic * m.periodic) * sizeof(Complex);
}

template <typename Real>
std::size_t TrainStage<Real>::constant_bytes(const ChannelTrain& channel, int samples) {
  std::size_t bytes = 0;
  const std::size_t n = samples;
  for (const TrainStep& s : channel.steps) {
    bytes += s.stop.size() * sizeof(Real);
    for (const MaskPass& p : s.passes) {
      const std::size_t m = p.points;
      bytes += (p.periodic() ? n + m * m : 2 * n * m + m * m) * sizeof(Complex);
    }
  }
  return bytes;
}

template <typename Real>
TrainStage<Real>::TrainStage(const ChannelTrain& channel, int samples, int frames,
                             cudaStream_t stream)
    : samples_(samples) {
  const Precision precision =
      sizeof(Real) == sizeof(float) ? Precision::single : Precision::double_;
  for (const TrainStep& s : channel.steps) {
    Step step;
    step.stop = s.kind == TrainStep::Kind::stop;
    step.keep = static_cast<Real>(s.keep);
    if (step.stop) {
      std::vector<Real> mask(s.stop.begin(), s.stop.end());
      step.mask = uploaded(mask);
    }
    for (const MaskPass& p : s.passes) {
      Pass pass;
      pass.points = p.points;
      pass.weights = uploaded(rounded<Complex>(p.weights));
      if (p.periodic()) {
        pass.twist = uploaded(rounded<Complex>(p.twist));
        pass.fft = std::make_unique<FftPlan>(FftShape{p.points, frames}, precision, stream);
      } else {
        pass.forward = uploaded(rounded<Complex>(p.forward));
        pass.inverse = uploaded(rounded<Complex>(p.inverse));
      }
      step.passes.push_back(std::move(pass));
    }
    steps_.push_back(std::move(step));
  }
  const std::size_t n = samples, f = frames;
  const PassSizes m = largest_passes(channel);
  const std::size_t focal = std::max(m.matrices, m.periodic);
  if (focal > 0) {
    rows_ = DeviceBuffer<Complex>(f * n * m.matrices);
    focal_ = DeviceBuffer<Complex>(f * focal * focal);
    back_ = DeviceBuffer<Complex>(f * m.matrices * n);
    out_ = DeviceBuffer<Complex>(f * n * n);
    // A periodic pass transforms every frame's padded field, the stale ones of a short call
    // too: none is left uninitialised.
    PSFSIM_CUDA_CHECK(cudaMemset(focal_.data(), 0, focal_.bytes()));
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
  const long long n2 = static_cast<long long>(samples_) * samples_;
  for (const Step& s : steps_) {
    if (s.stop) {
      launch_multiply_real<Real>(fields, s.mask.data(), n2, count, stream);
      continue;
    }
    launch_scaled_copy<Real>(out_.data(), fields, s.keep, n2 * count, stream);
    for (const Pass& p : s.passes) {
      if (p.fft) issue_periodic(p, fields, count, stream);
      else issue_matrices(blas, p, fields, count, stream);
    }
    PSFSIM_CUDA_CHECK(cudaMemcpyAsync(fields, out_.data(),
                                      static_cast<std::size_t>(n2 * count) * sizeof(Complex),
                                      cudaMemcpyDeviceToDevice, stream));
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
void TrainStage<Real>::issue_matrices(const BlasHandle& blas, const Pass& p, const Complex* fields,
                                      int count, cudaStream_t stream) const {
  const int n = samples_, m = p.points;
  const long long n2 = static_cast<long long>(n) * n;
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

// L += V* conj(F conj(G .* F (V P V) F) F) V* (MaskPass::twist): forward transforms only, the
// inverse by conjugation, in place on the padded fields.
template <typename Real>
void TrainStage<Real>::issue_periodic(const Pass& p, const Complex* fields, int count,
                                      cudaStream_t stream) const {
  const int n = samples_, m = p.points;
  launch_pad_twisted<Real>(focal_.data(), fields, p.twist.data(), n, m, count, stream);
  p.fft->forward(focal_.data(), focal_.data());
  launch_weight_conjugate<Real>(focal_.data(), p.weights.data(), static_cast<long long>(m) * m,
                                count, stream);
  p.fft->forward(focal_.data(), focal_.data());
  launch_crop_twisted_add<Real>(out_.data(), focal_.data(), p.twist.data(), n, m, count, stream);
}

template class TrainStage<float>;
template class TrainStage<double>;

}  // namespace psfsim::cuda

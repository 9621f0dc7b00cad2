#include "train_stage.hpp"

#include <omp.h>

#include <algorithm>

#include "openblas_library.hpp"

namespace psfsim::cpu {
namespace {

// C = alpha op(A) op(B) + beta C, row-major, in the operands' precision.
void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, std::complex<float> alpha,
          const std::complex<float>* a, int lda, const std::complex<float>* b, int ldb,
          std::complex<float> beta, std::complex<float>* c, int ldc) {
  openblas().cgemm(CblasRowMajor, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, std::complex<double> alpha,
          const std::complex<double>* a, int lda, const std::complex<double>* b, int ldb,
          std::complex<double> beta, std::complex<double>* c, int ldc) {
  openblas().zgemm(CblasRowMajor, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}

template <typename To, typename From>
std::vector<To> rounded(const std::vector<From>& v) {
  std::vector<To> out;
  out.reserve(v.size());
  for (const From& x : v) out.push_back(static_cast<To>(x));
  return out;
}

}  // namespace

template <typename Real>
TrainStage<Real>::TrainStage(const ChannelTrain& channel, int samples) : samples_(samples) {
  const std::size_t n = samples;
  for (const TrainStep& s : channel.steps) {
    Step step;
    step.stop = s.kind == TrainStep::Kind::stop;
    step.keep = static_cast<Real>(s.keep);
    if (step.stop) step.mask = rounded<Real>(s.stop);
    for (const MaskPass& p : s.passes) {
      step.passes.push_back(Pass{p.points, rounded<Complex>(p.forward), rounded<Complex>(p.inverse),
                                 rounded<Complex>(p.weights)});
      const std::size_t m = p.points;
      work_elements_ = std::max(work_elements_, 2 * n * m + m * m + n * n);
    }
    steps_.push_back(std::move(step));
  }
}

template <typename Real>
void TrainStage<Real>::apply(Complex* fields, int count, int threads) {
  const std::size_t n2 = static_cast<std::size_t>(samples_) * samples_;
  const int team = std::max(1, std::min(threads, count));
  if (work_.size() < static_cast<std::size_t>(team)) work_.resize(team);
  for (auto& w : work_)
    if (w.size() < work_elements_) w.resize(work_elements_);
      // The caller holds OpenBLAS at one thread: frames are shared out here instead.
#pragma omp parallel for num_threads(team) schedule(dynamic, 1)
  for (int f = 0; f < count; ++f) apply_one(fields + f * n2, work_[omp_get_thread_num()]);
}

template <typename Real>
void TrainStage<Real>::apply_one(Complex* field, std::vector<Complex>& work) const {
  const int n = samples_;
  const std::size_t n2 = static_cast<std::size_t>(n) * n;
  const Complex one(1), zero(0);
  for (const Step& s : steps_) {
    if (s.stop) {
      for (std::size_t i = 0; i < n2; ++i) field[i] *= s.mask[i];
      continue;
    }
    Complex* out = work.data() + (work_elements_ - n2);  // L, N x N
    for (std::size_t i = 0; i < n2; ++i) out[i] = s.keep * field[i];
    for (const Pass& p : s.passes) {
      const int m = p.points;
      Complex* rows = work.data();                              // P A^T, N x m
      Complex* focal = rows + static_cast<std::size_t>(n) * m;  // A P A^T, m x m
      Complex* back = focal + static_cast<std::size_t>(m) * m;  // G F B^T, m x N
      gemm(CblasNoTrans, CblasTrans, n, m, n, one, field, n, p.forward.data(), n, zero, rows, m);
      gemm(CblasNoTrans, CblasNoTrans, m, m, n, one, p.forward.data(), n, rows, m, zero, focal, m);
      for (std::size_t i = 0; i < static_cast<std::size_t>(m) * m; ++i) focal[i] *= p.weights[i];
      gemm(CblasNoTrans, CblasTrans, m, n, m, one, focal, m, p.inverse.data(), m, zero, back, n);
      gemm(CblasNoTrans, CblasNoTrans, n, n, m, one, p.inverse.data(), m, back, n, one, out, n);
    }
    std::copy(out, out + n2, field);
  }
}

template class TrainStage<float>;
template class TrainStage<double>;

}  // namespace psfsim::cpu

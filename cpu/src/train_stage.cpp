#include "train_stage.hpp"

#include <omp.h>

#include <algorithm>
#include <mutex>

#include "fftw_wisdom.hpp"
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
      Pass pass{p.points, {}, {}, rounded<Complex>(p.weights), rounded<Complex>(p.twist), {}, {}};
      if (!p.periodic()) {
        pass.forward = rounded<Complex>(p.forward);
        pass.inverse = rounded<Complex>(p.inverse);
      }
      step.passes.push_back(std::move(pass));
      // Products: N x m, m x m, m x N and N x N; FFTs: m x (m + 1) at offset N x m, N x N.
      const std::size_t m = p.points;
      work_elements_ = std::max(work_elements_, 2 * n * m + m * m + n * n);
    }
    steps_.push_back(std::move(step));
  }
  // Planned on a buffer laid out as the threads' are; FFTW_ESTIMATE touches none of it, and
  // with no wisdom held it plans by its rules alone, so that reruns get the same bits.
  FftwArray<Complex> layout(work_elements_);
  std::lock_guard lock(fftw_planner_mutex());
  const WisdomSetAside no_wisdom;
  for (Step& step : steps_)
    for (Pass& p : step.passes) {
      if (p.twist.empty()) continue;
      const int m = p.points, pitch = m + 1;
      Complex* focal = layout.data() + n * static_cast<std::size_t>(m);
      const fftw_iodim along_row{m, 1, 1}, first_rows{samples, pitch, pitch};
      const fftw_iodim along_column{m, pitch, pitch}, columns{m, 1, 1};
      p.rows = FftwPlan<Real>(
          FftwApi<Real>::plan_guru(1, &along_row, 1, &first_rows, focal, focal, FFTW_ESTIMATE));
      p.columns = FftwPlan<Real>(
          FftwApi<Real>::plan_guru(1, &along_column, 1, &columns, focal, focal, FFTW_ESTIMATE));
    }
}

template <typename Real>
void TrainStage<Real>::apply(Complex* fields, int count, int threads) {
  const std::size_t n2 = static_cast<std::size_t>(samples_) * samples_;
  const int team = std::max(1, std::min(threads, count));
  while (work_.size() < static_cast<std::size_t>(team)) work_.emplace_back(work_elements_);
    // The caller holds OpenBLAS at one thread: frames are shared out here instead.
#pragma omp parallel for num_threads(team) schedule(dynamic, 1)
  for (int f = 0; f < count; ++f) apply_one(fields + f * n2, work_[omp_get_thread_num()].data());
}

template <typename Real>
void TrainStage<Real>::apply_one(Complex* field, Complex* work) const {
  const std::size_t n2 = static_cast<std::size_t>(samples_) * samples_;
  for (const Step& s : steps_) {
    if (s.stop) {
      for (std::size_t i = 0; i < n2; ++i) field[i] *= s.mask[i];
      continue;
    }
    Complex* out = work + (work_elements_ - n2);  // L, N x N
    for (std::size_t i = 0; i < n2; ++i) out[i] = s.keep * field[i];
    for (const Pass& p : s.passes) {
      if (p.twist.empty()) apply_matrices(p, field, work, out);
      else apply_periodic(p, field, work, out);
    }
    std::copy(out, out + n2, field);
  }
}

// out += B (G .* (A P A^T)) B^T by four products.
template <typename Real>
void TrainStage<Real>::apply_matrices(const Pass& p, const Complex* field, Complex* work,
                                      Complex* out) const {
  const int n = samples_, m = p.points;
  const Complex one(1), zero(0);
  Complex* rows = work;                                     // P A^T, N x m
  Complex* focal = rows + static_cast<std::size_t>(n) * m;  // A P A^T, m x m
  Complex* back = focal + static_cast<std::size_t>(m) * m;  // G F B^T, m x N
  gemm(CblasNoTrans, CblasTrans, n, m, n, one, field, n, p.forward.data(), n, zero, rows, m);
  gemm(CblasNoTrans, CblasNoTrans, m, m, n, one, p.forward.data(), n, rows, m, zero, focal, m);
  for (std::size_t i = 0; i < static_cast<std::size_t>(m) * m; ++i) focal[i] *= p.weights[i];
  gemm(CblasNoTrans, CblasTrans, m, n, m, one, focal, m, p.inverse.data(), m, zero, back, n);
  gemm(CblasNoTrans, CblasNoTrans, n, n, m, one, p.inverse.data(), m, back, n, one, out, n);
}

// The same pass as V* conj(F conj(G .* F (V P V) F) F) V* (MaskPass::twist), F the m-point
// DFT on the field zero-padded to m x m: forward transforms only, the inverse by conjugation.
// The first transform skips the padding's rows, the last the rows the crop drops. Rows are
// m + 1 apart: at a power-of-two pitch the column transforms' samples all fall in a few
// cache sets (bench/results/2026-12-03-train-periodic-pass.md).
template <typename Real>
void TrainStage<Real>::apply_periodic(const Pass& p, const Complex* field, Complex* work,
                                      Complex* out) const {
  const std::size_t n = samples_, m = p.points, pitch = m + 1;
  Complex* f = work + n * m;  // the plans' offset
  std::fill(f, f + m * pitch, Complex{});
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c)
      f[r * pitch + c] = p.twist[r] * p.twist[c] * field[r * n + c];
  p.rows.execute(f, f);
  p.columns.execute(f, f);
  for (std::size_t r = 0; r < m; ++r)
    for (std::size_t c = 0; c < m; ++c)
      f[r * pitch + c] = std::conj(f[r * pitch + c] * p.weights[r * m + c]);
  p.columns.execute(f, f);
  p.rows.execute(f, f);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c)
      out[r * n + c] += std::conj(p.twist[r] * p.twist[c] * f[r * pitch + c]);
}

template class TrainStage<float>;
template class TrainStage<double>;

}  // namespace psfsim::cpu

#include "mft_propagator.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <string>
#include <thread>
#include <utility>

#include "intensity.hpp"
#include "openblas_library.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/host_cores.hpp"
#include "psfsim/mft_matrix.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/pupil_math.hpp"
#include "sincos_turns.hpp"

namespace psfsim::cpu {
namespace {

// C = A op(B), row-major, in the precision of the operands.
inline void gemm(CBLAS_TRANSPOSE trans_b, int m, int n, int k, const std::complex<float>* a,
                 int lda, const std::complex<float>* b, int ldb, std::complex<float>* c, int ldc) {
  const std::complex<float> one{1.0F, 0.0F};
  const std::complex<float> zero{};
  openblas().cgemm(CblasRowMajor, CblasNoTrans, trans_b, m, n, k, &one, a, lda, b, ldb, &zero, c,
                   ldc);
}

inline void gemm(CBLAS_TRANSPOSE trans_b, int m, int n, int k, const std::complex<double>* a,
                 int lda, const std::complex<double>* b, int ldb, std::complex<double>* c,
                 int ldc) {
  const std::complex<double> one{1.0, 0.0};
  const std::complex<double> zero{};
  openblas().zgemm(CblasRowMajor, CblasNoTrans, trans_b, m, n, k, &one, a, lda, b, ldb, &zero, c,
                   ldc);
}

// OpenBLAS's thread count is process-wide; this sets it for a scope and puts it back.
// Inside an OpenMP loop over frames it must be 1, or each frame's call would hand its work
// to OpenBLAS's one pool of threads, on the cores the OpenMP team already holds.
class BlasThreads {
 public:
  explicit BlasThreads(int threads) : saved_(openblas().get_num_threads()) {
    if (threads != saved_) openblas().set_num_threads(threads);
  }
  ~BlasThreads() {
    if (openblas().get_num_threads() != saved_) openblas().set_num_threads(saved_);
  }
  BlasThreads(const BlasThreads&) = delete;
  BlasThreads& operator=(const BlasThreads&) = delete;

 private:
  int saved_;
};

// Enough frames for every thread: one block of frames per thread at a time, single-threaded
// BLAS, so that nothing is shared and nothing waits. Fewer: each frame's products split by
// rows over the same OpenMP team, BLAS still on one thread. OpenBLAS's own pool is never
// woken: its threads spin after each threaded call (THREAD_TIMEOUT), on the cores the next
// OpenMP region (the next pupils) wants, which made frames in parallel and single PSFs many
// times slower (bench/results/2026-11-30-mft-and-auto.md).
bool frames_in_parallel(int count, int threads) { return threads > 1 && count >= threads; }

// Below this many real operations a frame's products stay on one thread: a team's fork and
// join (a few microseconds) would cost more than they share out.
constexpr double min_split_operations = 1e6;

// Part t of nt of [0, count): contiguous, sizes differing by at most one.
std::pair<int, int> share(int count, int t, int nt) {
  const auto at = [&](int i) { return static_cast<int>(static_cast<long long>(count) * i / nt); };
  return {at(t), at(t + 1)};
}

std::size_t area(int a, int b) { return static_cast<std::size_t>(a) * static_cast<std::size_t>(b); }

// Frames per first product. One GEMM over a stack of small pupils saves per-call overhead,
// but larger blocks lose the cache between the two products and the balance between threads.
// So a block's P A^T stays within 64 KiB, which leaves every shape from N x K = 64 x 64
// (float) up one frame per block (bench/mft_vs_blas.cpp; bench/results/code-constants.md).
int block_frames(int samples, int output, std::size_t complex_bytes) {
  constexpr std::size_t target_bytes = 64 * 1024;
  const std::size_t per_frame = area(samples, output) * complex_bytes;
  return static_cast<int>(std::clamp<std::size_t>(target_bytes / per_frame, 1, 8));
}

// The output index on the optical axis: `pixel_centre`, or floor(K/2) where it is below 0.
double centre_of(int output, double pixel_centre) {
  return pixel_centre >= 0.0 ? pixel_centre : output / 2;
}

// Throws before any member is sized from a bad argument.
int checked_samples(int samples, int output, double pixel_scale, double pixel_centre) {
  if (samples < 1 || output < 1)
    throw InputError("mft: N = " + std::to_string(samples) + " and K = " + std::to_string(output) +
                     " must both be at least 1");
  if (!std::isfinite(pixel_scale) || !std::isfinite(pixel_centre))
    throw InputError("mft: pixel scale " + format_number(pixel_scale) + " and centre " +
                     format_number(pixel_centre) + " must be finite");
  // sincos_turns reduces exactly below 2^28 turns, and |theta xi| <= |theta| / 2.
  const double centre = centre_of(output, pixel_centre);
  const double farthest = std::max(centre, output - 1 - centre);
  if (std::abs(pixel_scale) * farthest / 2 >= 0x1p28)
    throw InputError("mft: pixel scale " + format_number(pixel_scale) +
                     " lambda/D is too large for K = " + std::to_string(output));
  return samples;
}

}  // namespace

template <typename Real>
MftPropagator<Real>::MftPropagator(int samples, int output, double pixel_scale, Grid grid,
                                   int threads, double pixel_centre)
    : samples_(checked_samples(samples, output, pixel_scale, pixel_centre)),
      output_(output),
      threads_(threads > 0 ? threads : usable_cores()),
      block_frames_(block_frames(samples, output, sizeof(Complex))) {
  // In double, reduced to whole turns before sin and cos (sincos_turns), then rounded once
  // to Real: the phase error stays at double's rounding of theta xi, whatever K s.
  std::vector<double> coordinates(static_cast<std::size_t>(samples));
  for (int i = 0; i < samples; ++i) coordinates[i] = pupil::coordinate(i, samples, grid);
  matrix_.resize(area(output, samples));
  write_mft_matrix(
      MftAxis{coordinates, output, centre_of(output, pixel_centre), pixel_scale},
      [](double turns) {
        const SinCos<double> e = sincos_turns<double>(turns);
        return Complex(static_cast<Real>(e.cos), static_cast<Real>(-e.sin));
      },
      matrix_.begin());
}

template <typename Real>
void MftPropagator<Real>::reserve_workers(int workers) {
  const std::size_t rows = area(workers, block_frames_) * area(samples_, output_);
  if (rows_.size() < rows) rows_.resize(rows);
  const std::size_t field = area(workers, output_) * output_;
  if (field_.size() < field) field_.resize(field);
}

template <typename Real>
void MftPropagator<Real>::propagate(const Complex* pupils, int count, Real* out, Real scale) {
  propagate(pupils, count, out, scale, MftSupport{0, samples_, 0, samples_});
}

template <typename Real>
void MftPropagator<Real>::propagate(const Complex* pupils, int count, Real* out, Real scale,
                                    const MftSupport& support) {
  const int n = samples_;
  const auto valid = [n](int lo, int hi) { return 0 <= lo && lo <= hi && hi <= n; };
  if (!valid(support.row_lo, support.row_hi) || !valid(support.col_lo, support.col_hi))
    throw InputError("mft: support rows [" + std::to_string(support.row_lo) + ", " +
                     std::to_string(support.row_hi) + "), columns [" +
                     std::to_string(support.col_lo) + ", " + std::to_string(support.col_hi) +
                     ") outside the N = " + std::to_string(n) + " pupil");
  if (count <= 0) return;
  const std::size_t pupil_elements = area(n, n);
  const std::size_t frame_elements = area(output_, output_);
  const std::size_t rows_per_worker = area(block_frames_, n) * output_;

  if (frames_in_parallel(count, threads_)) {
    reserve_workers(threads_);
    // At least four blocks per thread, for the dynamic schedule to even out.
    const int block = std::clamp((count + 4 * threads_ - 1) / (4 * threads_), 1, block_frames_);
    const int blocks = (count + block - 1) / block;
    const BlasThreads one(1);
#pragma omp parallel for num_threads(threads_) schedule(dynamic, 1)
    for (int b = 0; b < blocks; ++b) {
      const int w = omp_get_thread_num();
      const int first = b * block;
      propagate_block(pupils + first * pupil_elements, std::min(block, count - first),
                      out + first * frame_elements, scale, support,
                      rows_.data() + w * rows_per_worker, field_.data() + w * frame_elements);
    }
  } else {
    reserve_workers(1);
    const BlasThreads one(1);
    for (int f = 0; f < count; ++f)
      propagate_split(pupils + f * pupil_elements, out + f * frame_elements, scale, support);
  }
}

// One frame, its products split by rows over the team: P A^T's support rows, then E's rows.
template <typename Real>
void MftPropagator<Real>::propagate_split(const Complex* pupil, Real* out, Real scale,
                                          const MftSupport& support) {
  const int n = samples_;
  const int k = output_;
  const int r0 = support.row_lo;
  const int nr = support.rows();
  const int c0 = support.col_lo;
  const int nc = support.columns();
  if (support.empty()) {
    std::fill(out, out + area(k, k), Real(0));
    return;
  }
  const double operations =
      8.0 * (static_cast<double>(nr) * nc * k + static_cast<double>(k) * k * nr);
  const int team = operations < min_split_operations ? 1 : threads_;
  Complex* rows = rows_.data();
  Complex* field = field_.data();
#pragma omp parallel num_threads(team)
  {
    const int t = omp_get_thread_num();
    const int nt = omp_get_num_threads();
    const auto [lo, hi] = share(nr, t, nt);
    if (hi > lo)
      gemm(CblasTrans, hi - lo, k, nc, pupil + area(r0 + lo, n) + c0, n, matrix_.data() + c0, n,
           rows + area(r0 + lo, k), k);
#pragma omp barrier
    const auto [q_lo, q_hi] = share(k, t, nt);
    if (q_hi > q_lo)
      gemm(CblasNoTrans, q_hi - q_lo, k, nr, matrix_.data() + area(q_lo, n) + r0, n,
           rows + area(r0, k), k, field + area(q_lo, k), k);
#pragma omp barrier
#pragma omp single
    write_intensity(field, k, 0, k, out, Normalization::peak, scale);  // `peak`: a plain scale
  }
}

template <typename Real>
void MftPropagator<Real>::propagate_block(const Complex* pupils, int frames, Real* out, Real scale,
                                          const MftSupport& support, Complex* rows,
                                          Complex* field) const {
  const int n = samples_;
  const int k = output_;
  const int r0 = support.row_lo;
  const int nr = support.rows();
  const int c0 = support.col_lo;
  const int nc = support.columns();
  const std::size_t frame_elements = area(k, k);
  if (support.empty()) {
    std::fill(out, out + frames * frame_elements, Real(0));
    return;
  }
  // First product, P A^T over the support's columns: one GEMM for the whole block when every
  // row is needed (the pupils stack into one (frames N) x N matrix), else one per frame over
  // its support rows. Rows outside the support are neither computed nor read.
  const Complex* a_columns = matrix_.data() + c0;  // A^T's rows c0.. (A read transposed)
  if (nr == n) {
    gemm(CblasTrans, frames * n, k, nc, pupils + c0, n, a_columns, n, rows, k);
  } else {
    for (int f = 0; f < frames; ++f)
      gemm(CblasTrans, nr, k, nc, pupils + f * area(n, n) + area(r0, n) + c0, n, a_columns, n,
           rows + f * area(n, k) + area(r0, k), k);
  }
  // Second product per frame, A (P A^T) over the support rows, with the intensity taken
  // while the K x K field is in cache.
  for (int f = 0; f < frames; ++f) {
    gemm(CblasNoTrans, k, k, nr, matrix_.data() + r0, n, rows + f * area(n, k) + area(r0, k), k,
         field, k);
    // write_intensity's `peak` branch is a plain scale.
    write_intensity(field, k, 0, k, out + f * frame_elements, Normalization::peak, scale);
  }
}

template <typename Real>
double MftPropagator<Real>::bare_products_seconds(int samples, int output, int count, int threads,
                                                  int repeats) {
  using Clock = std::chrono::steady_clock;
  threads = threads > 0 ? threads : usable_cores();
  const int n = samples;
  const int k = output;
  const std::vector<Complex> pupils(area(count, n) * n, Complex(Real(0.5), Real(-0.25)));
  const std::vector<Complex> a(area(k, n), Complex(Real(0.125), Real(0.75)));
  std::vector<Complex> rows(area(threads, n) * k);
  std::vector<Complex> field(area(threads, k) * k);
  const auto frame = [&](int f, int w) {
    Complex* t = rows.data() + w * area(n, k);
    gemm(CblasTrans, n, k, n, pupils.data() + f * area(n, n), n, a.data(), n, t, k);
    gemm(CblasNoTrans, k, k, n, a.data(), n, t, k, field.data() + w * area(k, k), k);
  };
  // The same arrangement as propagate(), so that only the products differ.
  const auto run = [&] {
    if (frames_in_parallel(count, threads)) {
      const BlasThreads one(1);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
      for (int f = 0; f < count; ++f) frame(f, omp_get_thread_num());
    } else {
      const BlasThreads all(threads);
      for (int f = 0; f < count; ++f) frame(f, 0);
    }
  };
  run();  // warm-up: BLAS buffers, thread pools, caches
  std::vector<double> t(static_cast<std::size_t>(std::max(1, repeats)));
  for (double& s : t) {
    const auto t0 = Clock::now();
    run();
    s = std::chrono::duration<double>(Clock::now() - t0).count();
  }
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

template class MftPropagator<float>;
template class MftPropagator<double>;

}  // namespace psfsim::cpu

#include "encircled_energy.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numbers>
#include <string>

#include "fftw_wisdom.hpp"
#include "psfsim/memory_budget.hpp"
#include "psfsim/metric_math.hpp"

namespace psfsim::cpu {
namespace {

// FFT work in the units of n log2 n.
double transform_cost(double rows, double length) { return rows * length * std::log2(length); }

// The transpose's tile edge: its rows lie L values apart, a power of two for most L, so that
// more lines at once would share too few cache sets.
constexpr int tile = 8;

template <typename T>
double squared(std::complex<T> z) {
  const double re = z.real(), im = z.imag();
  return re * re + im * im;
}

// Grid row `values` (|E|^2 at j in [0, L), j = 0 on the axis) folded into quadrant row `q`,
// written or (`add`) added to: index f takes j = f and j = L - f.
void fold_row(const double* values, int period, int half, double* q, bool add) {
  for (int f = 0; f < half; ++f) {
    const int g = period - f;
    const double v = f != 0 && g != f ? values[f] + values[g] : values[f];
    q[f] = add ? q[f] + v : v;
  }
}

// sum_i a[i] b[i] in four independent sums, which the processor runs side by side.
double dot(const double* a, const double* b, std::size_t n) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  for (; i < n; ++i) s0 += a[i] * b[i];
  return (s0 + s1) + (s2 + s3);
}

}  // namespace

bool ee_reads_whole_plane(const PsfPlan& plan) {
  if (plan.metrics.column(Metric::ee) == nullptr || plan.propagation != Propagation::fft)
    return false;
  const int m = plan.padded;
  if (encircled_energy_stride(plan.samples, m) == 0) return false;
  if (plan.frame == m || plan.metrics.needs_full_plane()) return true;  // computed anyway
  const int l = encircled_energy_period(plan.samples);
  return transform_cost(m - plan.frame, m) <= transform_cost(plan.samples + l, l);
}

template <typename T>
EncircledEnergy<T> EncircledEnergy<T>::from_plane(const PsfPlan& plan) {
  EncircledEnergy e;
  e.samples_ = plan.samples;
  e.padded_ = plan.padded;
  e.stride_ = encircled_energy_stride(plan.samples, plan.padded);
  const int period = plan.padded / e.stride_;
  e.weights_ = encircled_energy_weights(plan, period, plan.threads);
  const long long axis = plan.padded / 2;
  for (int j = 0; j < period; ++j)
    e.grid_index_.push_back(
        static_cast<int>((axis + e.stride_ * static_cast<long long>(j)) % plan.padded));
  return e;
}

template <typename T>
EncircledEnergy<T> EncircledEnergy<T>::from_pupils(const PsfPlan& plan, bool shifted, int threads) {
  EncircledEnergy e;
  e.samples_ = plan.samples;
  e.padded_ = plan.padded;
  const int period = encircled_energy_period(plan.samples);
  e.weights_ = encircled_energy_weights(plan, period, plan.threads);
  // The FFT's modulation exp(2 pi i h n / M) (h = M/2, n = offset + i) moves the axis to
  // L h / M: a grid index where that is whole (even M), else it is removed sample by sample.
  long long axis = 0;
  const long long h = plan.padded / 2;
  if (shifted && (period * h) % plan.padded == 0) {
    axis = period * h / plan.padded % period;
  } else if (shifted) {
    const SampledPupil& facts = plan.sampled_pupil();
    for (int i = 0; i < plan.samples; ++i) {
      const double angle = -2.0 * std::numbers::pi * facts.shift_waves[facts.offset + i];
      e.unshift_.emplace_back(static_cast<T>(std::cos(angle)), static_cast<T>(std::sin(angle)));
    }
  }
  for (int j = 0; j < period; ++j) e.grid_index_.push_back(static_cast<int>((axis + j) % period));
  // Planned on buffers of the shapes the callers use; FFTW_ESTIMATE reads and writes none,
  // and, with no wisdom held, plans by its rules alone (the same plan whatever ran before).
  Scratch s = e.make_scratch();
  const WisdomSetAside no_wisdom;
  const int n = plan.samples;
  if (threads > 1) FftwApi<T>::plan_with_nthreads(threads);
  const fftw_iodim row{period, 1, 1};
  const fftw_iodim pupil_rows{n, period, period};
  const fftw_iodim grid_rows{period, period, period};
  e.rows_plan_ = FftwPlan<T>(FftwApi<T>::plan_guru(1, &row, 1, &pupil_rows, s.rows_in.data(),
                                                   s.rows_out.data(), FFTW_ESTIMATE));
  e.grid_plan_ = FftwPlan<T>(FftwApi<T>::plan_guru(1, &row, 1, &grid_rows, s.grid_in.data(),
                                                   s.grid.data(), FFTW_ESTIMATE));
  if (threads > 1) FftwApi<T>::plan_with_nthreads(1);
  return e;
}

template <typename T>
typename EncircledEnergy<T>::Scratch EncircledEnergy<T>::make_scratch() const {
  Scratch s;
  s.quadrant.assign(weights_.table_size(), 0.0);
  s.row.assign(static_cast<std::size_t>(weights_.period), 0.0);
  if (stride_ == 0) {
    const std::size_t n = static_cast<std::size_t>(samples_);
    const std::size_t l = static_cast<std::size_t>(weights_.period);
    s.rows_in = FftwArray<Complex>(n * l);
    s.rows_out = FftwArray<Complex>(n * l);
    s.grid_in = FftwArray<Complex>(l * l);
    s.grid = FftwArray<Complex>(l * l);
  }
  return s;
}

template <typename T>
std::size_t EncircledEnergy<T>::bytes(const PsfPlan& plan, bool from_plane, int scratches) {
  const std::size_t n = static_cast<std::size_t>(plan.samples);
  const std::size_t l = static_cast<std::size_t>(
      from_plane ? plan.padded / encircled_energy_stride(plan.samples, plan.padded)
                 : encircled_energy_period(plan.samples));
  const std::size_t half = l / 2 + 1;
  const std::size_t tables =
      plan.channels.size() * plan.metrics.ee_radii.size() * half * half * sizeof(double);
  const std::size_t scratch = (half * half + l) * sizeof(double) +
                              (from_plane ? 0 : (2 * n * l + 2 * l * l) * sizeof(Complex));
  return tables + static_cast<std::size_t>(scratches) * scratch;
}

template <typename T>
void EncircledEnergy<T>::add_pupil(const Complex* field, std::size_t row_stride, int channel,
                                   Scratch& s, double* sums) const {
  const int n = samples_;
  const int l = weights_.period;
  const std::size_t ls = static_cast<std::size_t>(l);
  Complex* in = s.rows_in.data();
  for (int r = 0; r < n; ++r) {
    const Complex* src = field + static_cast<std::size_t>(r) * row_stride;
    Complex* dst = in + static_cast<std::size_t>(r) * ls;
    if (unshift_.empty()) {
      std::copy(src, src + n, dst);
    } else {
      const Complex row_factor = unshift_[static_cast<std::size_t>(r)];
      for (int c = 0; c < n; ++c) dst[c] = src[c] * (row_factor * unshift_[c]);
    }
  }
  rows_plan_.execute(in, s.rows_out.data());
  // grid_in[k][r] = rows_out[r][k], tile by tile (its columns past N stay zero), so that the
  // columns' transforms run along rows.
  const Complex* rows = s.rows_out.data();
  Complex* grid_in = s.grid_in.data();
  for (int k0 = 0; k0 < l; k0 += tile)
    for (int r0 = 0; r0 < n; r0 += tile) {
      const int k1 = std::min(l, k0 + tile), r1 = std::min(n, r0 + tile);
      for (int k = k0; k < k1; ++k)
        for (int r = r0; r < r1; ++r)
          grid_in[static_cast<std::size_t>(k) * ls + r] =
              rows[static_cast<std::size_t>(r) * ls + k];
    }
  grid_plan_.execute(grid_in, s.grid.data());
  // F transposed: the tables are symmetric in x and y, so it folds the same.
  fold_grid(s.grid.data(), ls, s);
  add_quadrant(channel, s, sums);
}

template <typename T>
void EncircledEnergy<T>::add_plane(const Complex* plane, Scratch& s, double* sums) const {
  fold_grid(plane, static_cast<std::size_t>(padded_), s);
  add_quadrant(0, s, sums);
}

// Quadrant row f from grid rows f and L - f (axis-relative), each folded along itself.
template <typename T>
void EncircledEnergy<T>::fold_grid(const Complex* grid, std::size_t row_stride, Scratch& s) const {
  const int l = weights_.period;
  const int half = weights_.half;
  const int* index = grid_index_.data();
  double* values = s.row.data();
  for (int f = 0; f < half; ++f) {
    double* q = s.quadrant.data() + static_cast<std::size_t>(f) * half;
    const int mirror = metric::ee_mirror(f, l);
    for (const int j : {f, mirror}) {
      if (j < 0) continue;
      const Complex* row = grid + static_cast<std::size_t>(index[j]) * row_stride;
      for (int i = 0; i < l; ++i) values[i] = squared(row[index[i]]);
      fold_row(values, l, half, q, j == mirror);
    }
  }
}

template <typename T>
void EncircledEnergy<T>::add_quadrant(int channel, Scratch& s, double* sums) const {
  const std::size_t size = weights_.table_size();
  const double* q = s.quadrant.data();
  for (int r = 0; r < weights_.radii; ++r)
    sums[r] += weights_.scales[static_cast<std::size_t>(channel)] *
               dot(q, weights_.table(channel, r), size);
}

template <typename T>
BlockEncircledEnergy<T>::BlockEncircledEnergy(const PsfPlan& plan, int frames, int threads)
    : threads_(std::max(1, threads)), samples_(plan.samples) {
  const MetricColumn* column = plan.metrics.column(Metric::ee);
  if (column == nullptr) return;
  active_ = true;
  offset_ = column->offset;
  require_memory(EncircledEnergy<T>::bytes(plan, false, threads_), available_host_memory(),
                 "ee: N=" + std::to_string(plan.samples) + ", " + std::to_string(threads_) +
                     " threads' transforms",
                 "host memory");
  {
    std::lock_guard lock(fftw_planner_mutex());
    engine_ = EncircledEnergy<T>::from_pupils(plan, false, 1);
  }
  for (int t = 0; t < threads_; ++t) scratch_.push_back(engine_.make_scratch());
  sums_.assign(static_cast<std::size_t>(frames) * engine_.radii(), 0.0);
}

template <typename T>
void BlockEncircledEnergy<T>::add_channel(const std::complex<T>* pupils, std::size_t pupil_stride,
                                          int count, int channel) {
  if (!active_) return;
  const std::size_t radii = static_cast<std::size_t>(engine_.radii());
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (int f = 0; f < count; ++f)
    engine_.add_pupil(pupils + static_cast<std::size_t>(f) * pupil_stride,
                      static_cast<std::size_t>(samples_), channel,
                      scratch_[static_cast<std::size_t>(omp_get_thread_num())],
                      sums_.data() + static_cast<std::size_t>(f) * radii);
}

template <typename T>
void BlockEncircledEnergy<T>::write(int count, double* rows, std::size_t values_per_frame) {
  if (!active_) return;
  const std::size_t radii = static_cast<std::size_t>(engine_.radii());
  for (int f = 0; f < count; ++f) {
    double* sums = sums_.data() + static_cast<std::size_t>(f) * radii;
    std::copy(sums, sums + radii, rows + static_cast<std::size_t>(f) * values_per_frame + offset_);
    std::fill(sums, sums + radii, 0.0);
  }
}

template class EncircledEnergy<float>;
template class EncircledEnergy<double>;
template class BlockEncircledEnergy<float>;
template class BlockEncircledEnergy<double>;

}  // namespace psfsim::cpu

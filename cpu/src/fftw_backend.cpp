#include "fftw_backend.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <thread>

#include "cpu_info.hpp"
#include "encircled_energy.hpp"
#include "fftw_api.hpp"
#include "mtf_transform.hpp"
#include "psfsim/frame_metrics.hpp"
#include "fftw_wisdom.hpp"
#include "intensity.hpp"
#include "psfsim/cpu/fft_effort_policy.hpp"
#include "psfsim/cpu/thread_policy.hpp"
#include "psfsim/cpu/tuning.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/host_cores.hpp"
#include "psfsim/memory_budget.hpp"
#include "psfsim/pupil_math.hpp"
#include "pupil_builder.hpp"

namespace psfsim::cpu {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

unsigned planner_flags(FftEffort effort) {
  switch (effort) {
    case FftEffort::estimate: return FFTW_ESTIMATE;
    case FftEffort::measure: return FFTW_MEASURE;
    case FftEffort::patient: return FFTW_PATIENT;
    case FftEffort::exhaustive: return FFTW_EXHAUSTIVE;
    case FftEffort::automatic: break;  // resolved by choose_fft_effort before this
  }
  return FFTW_ESTIMATE;
}

// FFTW's OpenMP loops (its threads/openmp.c, spawn_loop) open `#pragma omp parallel for`
// without a num_threads clause, so their team is omp_get_max_threads() (all cores) whatever
// the plan's thread count. Alternated with the pupil's team of T threads, that changed the
// team size twice per frame, which libgomp pays by releasing its surplus pool threads and
// starting them again, more than a small frame's own work (bench/cpu-threads.sh;
// bench/results/2026-11-30-cpu-threads.md). While one frame is computed (and while its plans
// are measured), the calling thread's default team is therefore the frame's thread count.
class OmpTeam {
 public:
  explicit OmpTeam(int threads) : saved_(omp_get_max_threads()) { omp_set_num_threads(threads); }
  ~OmpTeam() { omp_set_num_threads(saved_); }
  OmpTeam(const OmpTeam&) = delete;
  OmpTeam& operator=(const OmpTeam&) = delete;

 private:
  int saved_;
};

void init_fftw_threads_once() {
  static const bool done = [] {
    fftw_init_threads();
    fftwf_init_threads();
    return true;
  }();
  (void)done;
}

// A block of pupil columns copied out of the field, one after another, for the buffered
// column pass: `in` holds the pupil rows (its other rows stay zero), `out` their transforms.
template <typename T>
struct ColumnBuffers {
  FftwArray<std::complex<T>> in;
  FftwArray<std::complex<T>> out;
};

// One worker's buffers: the padded field and the K output rows of its focal-plane field.
// The pruned 2D FFT runs columns first over only the N pupil columns (strided transforms are
// FFTW's slow direction, so they get the smaller count), then rows, out of place, over only
// the K rows the output keeps. The field's other columns are never written and stay zero; the
// pupil builder re-zeroes the pupil columns outside the pupil rows. A measured plan does the
// columns in place, as FFTW found fastest; an estimate copies blocks of columns out and back
// (ColumnBuffers), since FFTW_ESTIMATE's own plan for strided columns runs them one by one
// through the cache, many times slower (bench/results/2026-12-01-first-run-and-planner-effort.md).
template <typename T>
struct Workspace {
  FftwArray<std::complex<T>> field;
  FftwArray<std::complex<T>> focal;       // the row pass's output
  FftwArray<std::complex<T>> otf;         // --metrics mtf: the whole plane's transform
  std::vector<ColumnBuffers<T>> columns;  // estimate: one per thread of the frame
  PupilScratch scratch;
  typename EncircledEnergy<T>::Scratch ee;  // --metrics ee
};

template <typename T>
class FftwBackend final : public Backend {
 public:
  explicit FftwBackend(const PsfPlan& plan);

  [[nodiscard]] std::string name() const override { return "cpu"; }
  [[nodiscard]] std::string device_name() const override { return cpu_model(); }
  [[nodiscard]] const PsfPlan& plan() const override { return plan_; }
  [[nodiscard]] int threads() const override { return threads_.workers * threads_.frame_threads; }
  [[nodiscard]] double plan_seconds() const override { return plan_seconds_; }
  [[nodiscard]] FrameBlock compute(std::span<const AberrationPolynomial> frames) override {
    return compute_to(frames, nullptr);
  }
  [[nodiscard]] FrameBlock compute_into(std::span<const AberrationPolynomial> frames,
                                        void* frames_out) override {
    return compute_to(frames, static_cast<T*>(frames_out));
  }

 private:
  // Into `out`, or the backend's next output buffer when null.
  [[nodiscard]] FrameBlock compute_to(std::span<const AberrationPolynomial> frames, T* out);
  void make_plans();
  // The column pass of an estimate: blocks of columns through ColumnBuffers.
  void buffered_columns(Workspace<T>& ws);
  // The field row where the row pass starts: the crop window's first, or 0 for all M rows.
  [[nodiscard]] std::size_t first_focal_row() const noexcept {
    return focal_rows_ == plan_.padded ? 0 : static_cast<std::size_t>(first_row_);
  }
  void compute_one(const AberrationPolynomial& phase, Workspace<T>& ws, T* out, double* metrics,
                   std::array<double, 4>& stage_seconds);

  PsfPlan plan_;
  FftEffort effort_;  // resolved: never automatic
  PupilBuilder builder_;
  // Workers (frames in parallel, batches) and the threads of one frame (pupil rows, FFTW):
  // choose_threads() in thread_policy.cpp says how many and why.
  ThreadPlan threads_;
  int first_row_;  // first output row and column: the crop window starts here on both axes
  // Focal-plane rows the row pass computes: the K of the crop window, or all M for the MTF.
  int focal_rows_;
  double peak_scale_;
  MtfTransform<T> mtf_;
  // --metrics ee: from the whole plane (ee_plane_) or from the pupil before its transform.
  bool ee_plane_ = false;
  std::optional<EncircledEnergy<T>> ee_;
  std::vector<Workspace<T>> workspaces_;
  FftwPlan<T> row_plan_;
  FftwPlan<T> column_plan_;  // measured: the N columns in place
  FftwPlan<T> block_plan_;   // estimate: a block of column_block_ columns, ColumnBuffers
  FftwPlan<T> tail_plan_;    // estimate: the last block's N mod column_block_ columns
  int column_block_ = 0;     // estimate: columns per block; 0 for a measured plan
  std::array<FftwArray<T>, 2> outputs_;
  std::array<std::vector<double>, 2> metric_outputs_;
  int next_output_ = 0;
  double plan_seconds_ = 0.0;
};

template <typename T>
FftwBackend<T>::FftwBackend(const PsfPlan& plan)
    : plan_(plan),
      effort_(choose_fft_effort(plan.fft_effort,
                                FftWork{plan.padded, plan.run_frames, !plan.fftw_wisdom.empty()})),
      builder_(plan),
      threads_(choose_threads(plan.padded, plan.max_batch, plan.threads, usable_cores())),
      first_row_(pupil::crop_start(plan.padded, plan.frame)),
      focal_rows_(plan.metrics.needs_full_plane() || ee_reads_whole_plane(plan) ? plan.padded
                                                                                : plan.frame),
      peak_scale_(plan.sampled_pupil().peak_scale),
      ee_plane_(ee_reads_whole_plane(plan)) {
  const std::size_t m = plan_.padded;
  const std::size_t rows = focal_rows_;
  const bool mtf = plan_.metrics.needs_full_plane();
  if (effort_ == FftEffort::estimate)
    column_block_ = std::max<int>(1, tuning::buffered_column_bytes / sizeof(std::complex<T>));
  const std::size_t block_buffers = 2 * m * column_block_ * threads_.frame_threads;
  const std::size_t per_worker =
      (m * m * (mtf ? 2 : 1) + m * rows + block_buffers) * sizeof(std::complex<T>);
  const std::size_t outputs = 2 * plan_.max_batch * plan_.frame_bytes();
  const std::size_t ee = plan_.metrics.column(Metric::ee) == nullptr
                             ? 0
                             : EncircledEnergy<T>::bytes(plan_, ee_plane_, threads_.workers);
  require_memory(threads_.workers * per_worker + outputs + ee, available_host_memory(),
                 "N=" + std::to_string(plan_.samples) + ", M=" + std::to_string(m) + " (" +
                     std::string(to_string(plan_.precision)) + ")",
                 "host memory");
  try {
    workspaces_.resize(threads_.workers);
    for (auto& ws : workspaces_) {
      ws.field = FftwArray<std::complex<T>>(m * m);
      ws.focal = FftwArray<std::complex<T>>(m * rows);
      if (mtf) ws.otf = FftwArray<std::complex<T>>(m * m);
      if (column_block_ > 0) {
        ws.columns.resize(threads_.frame_threads);
        for (auto& c : ws.columns) {
          c.in = FftwArray<std::complex<T>>(m * column_block_);
          c.out = FftwArray<std::complex<T>>(m * column_block_);
        }
      }
    }
    for (auto& out : outputs_) out = FftwArray<T>(plan_.max_batch * plan_.frame_elements());
    for (auto& out : metric_outputs_) out.resize(plan_.max_batch * plan_.metrics.values_per_frame);
  } catch (const std::bad_alloc&) {
    throw RuntimeFailure("out of host memory allocating the FFT buffers for M=" +
                         std::to_string(m));
  }
  make_plans();
}

template <typename T>
void FftwBackend<T>::make_plans() {
  const auto start = Clock::now();
  init_fftw_threads_once();
  const int m = plan_.padded;
  const int o = builder_.offset();
  Workspace<T>& ws = workspaces_.front();
  const WisdomFile wisdom{plan_.fftw_wisdom, plan_.fftw_wisdom_is_cache};
  const bool estimate = effort_ == FftEffort::estimate;
  const unsigned flags = planner_flags(effort_);

  std::lock_guard lock(fftw_planner_mutex());
  const OmpTeam team(threads_.frame_threads);
  // An estimate is planned from no wisdom at all, so that it is the same plan whatever ran
  // before; the file is still read (a file that is no wisdom is refused either way), after.
  std::optional<WisdomSetAside> set_aside;
  if (estimate) set_aside.emplace();
  else import_wisdom(wisdom);
  if (estimate) {
    // Single-threaded: the frame's threads take blocks of columns each.
    const auto block = [&](int count) {
      const fftw_iodim dim{m, 1, 1};
      const fftw_iodim loop{count, m, m};
      ColumnBuffers<T>& c = ws.columns.front();
      return FftwPlan<T>(FftwApi<T>::plan_guru(1, &dim, 1, &loop, c.in.data(), c.out.data(),
                                               flags | FFTW_PRESERVE_INPUT));
    };
    block_plan_ = block(column_block_);
    if (plan_.samples % column_block_ != 0) tail_plan_ = block(plan_.samples % column_block_);
  }
  FftwApi<T>::plan_with_nthreads(threads_.frame_threads);
  if (!estimate) {
    // Columns in place, then rows out of place: the fastest of the layouts that
    // bench/psfsim_fftw_pruned_layout compares (bench/results/2026-11-29-cpu-2-core.md).
    std::complex<T>* pupil_columns = ws.field.data() + o;
    const fftw_iodim column_dim{m, m, m};
    const fftw_iodim column_loop{plan_.samples, 1, 1};
    column_plan_ = FftwPlan<T>(FftwApi<T>::plan_guru(1, &column_dim, 1, &column_loop, pupil_columns,
                                                     pupil_columns, flags));
  }
  const fftw_iodim row_dim{m, 1, 1};
  const fftw_iodim row_loop{focal_rows_, m, m};
  row_plan_ = FftwPlan<T>(FftwApi<T>::plan_guru(
      1, &row_dim, 1, &row_loop, ws.field.data() + first_focal_row() * m, ws.focal.data(), flags));
  FftwApi<T>::plan_with_nthreads(1);
  if (plan_.metrics.needs_full_plane()) mtf_ = MtfTransform<T>(m, flags);  // one per worker
  if (plan_.metrics.column(Metric::ee) != nullptr) {
    ee_ = ee_plane_ ? EncircledEnergy<T>::from_plane(plan_)
                    : EncircledEnergy<T>::from_pupils(plan_, true, threads_.frame_threads);
    for (auto& w : workspaces_) w.ee = ee_->make_scratch();
  }
  if (set_aside) {
    set_aside.reset();
    import_wisdom(wisdom);
  } else {
    export_wisdom(wisdom);
    // FFTW_MEASURE scribbles on the arrays it plans with; the zero columns must be zero.
    std::fill(ws.field.data(), ws.field.data() + ws.field.size(), std::complex<T>{});
  }
  plan_seconds_ = seconds_since(start);
}

template <typename T>
void FftwBackend<T>::buffered_columns(Workspace<T>& ws) {
  const std::size_t m = plan_.padded;
  const int n = plan_.samples;
  const std::size_t o = builder_.offset();
  const int block = column_block_;
  const std::size_t first = first_focal_row();
  const int rows = focal_rows_;
  std::complex<T>* field = ws.field.data();
  // Block b: the pupil rows of columns o + b*block ..., then the focal-plane rows back.
  const auto run = [&](ColumnBuffers<T>& c, int b) {
    const int first_column = b * block;
    const int count = std::min(block, n - first_column);
    std::complex<T>* in = c.in.data();
    for (int i = 0; i < n; ++i) {
      const std::complex<T>* row = field + (o + i) * m + o + first_column;
      for (int j = 0; j < count; ++j) in[j * m + o + i] = row[j];
    }
    (count == block ? block_plan_ : tail_plan_).execute(in, c.out.data());
    const std::complex<T>* out = c.out.data();
    for (int r = 0; r < rows; ++r) {
      std::complex<T>* row = field + (first + r) * m + o + first_column;
      for (int j = 0; j < count; ++j) row[j] = out[j * m + first + r];
    }
  };
  const int blocks = (n + block - 1) / block;
  if (threads_.frame_threads > 1) {
#pragma omp parallel for num_threads(threads_.frame_threads) schedule(static)
    for (int b = 0; b < blocks; ++b) run(ws.columns[omp_get_thread_num()], b);
  } else {
    for (int b = 0; b < blocks; ++b) run(ws.columns.front(), b);
  }
}

template <typename T>
void FftwBackend<T>::compute_one(const AberrationPolynomial& phase, Workspace<T>& ws, T* out,
                                 double* metrics, std::array<double, 4>& stage_seconds) {
  const int o = builder_.offset();
  const std::size_t m = plan_.padded;

  auto t0 = Clock::now();
  if (threads_.frame_threads > 1) {
    const int n = plan_.samples;
    builder_.clear_outer_rows(ws.field.data());
#pragma omp parallel num_threads(threads_.frame_threads)
    {
      PupilScratch scratch;
      const int t = omp_get_thread_num();
      const int nt = omp_get_num_threads();
      builder_.build_rows(phase, ws.field.data(), scratch, n * t / nt, n * (t + 1) / nt);
    }
  } else {
    builder_.build(phase, ws.field.data(), ws.scratch);
  }
  stage_seconds[0] += seconds_since(t0);

  // ee from the pupil, before the transform overwrites it (its columns pass is in place).
  const MetricColumn* ee = metrics != nullptr ? plan_.metrics.column(Metric::ee) : nullptr;
  if (ee != nullptr) {
    t0 = Clock::now();
    std::fill(metrics + ee->offset, metrics + ee->offset + ee->width, 0.0);
    if (!ee_plane_) ee_->add_pupil(ws.field.data() + o * m + o, m, 0, ws.ee, metrics + ee->offset);
    stage_seconds[3] += seconds_since(t0);
  }

  t0 = Clock::now();
  if (column_block_ > 0) buffered_columns(ws);
  else column_plan_.execute(ws.field.data() + o, ws.field.data() + o);
  row_plan_.execute(ws.field.data() + first_focal_row() * m, ws.focal.data());
  stage_seconds[1] += seconds_since(t0);

  t0 = Clock::now();
  const std::complex<T>* window = ws.focal.data() + (first_row_ - first_focal_row()) * m;
  const double factor = write_intensity(window, plan_.padded, first_row_, plan_.frame, out,
                                        plan_.normalization, peak_scale_);
  stage_seconds[2] += seconds_since(t0);

  if (metrics == nullptr) return;
  t0 = Clock::now();
  const MetricsPlan& mp = plan_.metrics;
  frame_metrics(mp, plan_.sampled_pupil(), phase, out, plan_.frame, 1.0 / factor, metrics);
  if (const MetricColumn* mtf = mp.column(Metric::mtf))
    mtf_.evaluate(ws.focal.data(), ws.otf.data(), mp, metrics + mtf->offset);
  if (ee != nullptr && ee_plane_) ee_->add_plane(ws.focal.data(), ws.ee, metrics + ee->offset);
  stage_seconds[3] += seconds_since(t0);
}

template <typename T>
FrameBlock FftwBackend<T>::compute_to(std::span<const AberrationPolynomial> frames, T* out) {
  if (frames.empty() || frames.size() > static_cast<std::size_t>(plan_.max_batch))
    throw InputError("cpu backend: " + std::to_string(frames.size()) +
                     " frames given, the plan holds 1 to " + std::to_string(plan_.max_batch));
  const auto start = Clock::now();
  if (out == nullptr) out = outputs_[next_output_].data();
  std::vector<double>& metric_rows = metric_outputs_[next_output_];
  next_output_ ^= 1;
  const std::size_t per_metrics = plan_.metrics.values_per_frame;
  const auto metrics_of = [&](long f) {
    return per_metrics > 0 ? metric_rows.data() + f * per_metrics : nullptr;
  };
  const std::size_t frame_elements = plan_.frame_elements();
  const long count = static_cast<long>(frames.size());

  std::vector<std::array<double, 4>> seconds(threads_.workers, {0.0, 0.0, 0.0, 0.0});
  if (threads_.workers == 1) {
    const OmpTeam team(threads_.frame_threads);
    for (long f = 0; f < count; ++f)
      compute_one(frames[f], workspaces_[0], out + f * frame_elements, metrics_of(f), seconds[0]);
  } else {
#pragma omp parallel for num_threads(threads_.workers) schedule(dynamic, 1)
    for (long f = 0; f < count; ++f) {
      const int w = omp_get_thread_num();
      compute_one(frames[f], workspaces_[w], out + f * frame_elements, metrics_of(f), seconds[w]);
    }
  }

  FrameBlock block;
  block.data = out;
  block.metrics = per_metrics > 0 ? metric_rows.data() : nullptr;
  block.frames = frames.size();
  // With frames in parallel, a stage's share of the wall time is its mean over workers.
  const char* names[] = {"pupil", "fft", "intensity", "metrics"};
  for (int s = 0; s < (per_metrics > 0 ? 4 : 3); ++s) {
    double sum = 0.0;
    for (const auto& w : seconds) sum += w[s];
    block.times.add(names[s], sum / threads_.workers);
  }
  block.times.total = seconds_since(start);
  return block;
}

}  // namespace

std::unique_ptr<Backend> make_fftw_backend(const PsfPlan& plan) {
  if (plan.precision == Precision::single) return std::make_unique<FftwBackend<float>>(plan);
  return std::make_unique<FftwBackend<double>>(plan);
}

std::string fftw_version_line() { return std::string("FFTW ") + fftw_version; }

}  // namespace psfsim::cpu

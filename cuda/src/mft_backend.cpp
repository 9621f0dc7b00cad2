#include "mft_backend.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <climits>
#include <optional>
#include <cmath>
#include <complex>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_check.hpp"
#include "device_info.hpp"
#include "device_memory.hpp"
#include "encircled_energy.hpp"
#include "folded_pupil_kernel.hpp"
#include "mft_blas.hpp"
#include "mft_intensity.hpp"
#include "pipelined_backend.hpp"
#include "metrics_kernel.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/cuda/mft_fold.hpp"
#include "psfsim/memory_budget.hpp"
#include "psfsim/mft_matrix.hpp"
#include "pupil_kernel.hpp"
#include "pupil_map_buffers.hpp"
#include "train_stage.hpp"

namespace psfsim::cuda {
namespace {

constexpr std::size_t mib = std::size_t{1} << 20;
// Left free for what cuBLAS, graphs and the context allocate beyond our own estimate.
constexpr std::size_t device_memory_reserve = 64 * mib;
// Up to this much output per call the last kernel writes the frames straight into pinned
// host memory, which serves one small call best. A larger output goes through the copy
// engine after the call's graph, on a stream of its own, so that it overlaps the next
// call's computation (the run queues one call ahead), which is faster for calls of a few
// MiB (bench/results/2026-12-01-queued-calls.md).
constexpr std::size_t direct_write_limit = mib / 4;
// The pupils, products and fields of one piece stay under this, so that device memory is
// bounded for any batch and number of channels.
constexpr std::size_t piece_buffer_limit = 512 * mib;

// Frames [first(p), first(p + 1)) of a call make piece p.
struct PieceSplit {
  std::vector<int> bounds;  // pieces + 1 ascending frame indices, from 0 to the call's frames

  [[nodiscard]] int pieces() const noexcept { return static_cast<int>(bounds.size()) - 1; }
  [[nodiscard]] int first(int piece) const noexcept {
    return bounds[static_cast<std::size_t>(piece)];
  }
  [[nodiscard]] int count(int piece) const noexcept { return first(piece + 1) - first(piece); }
};

// How compute() runs, chosen once from the plan's sizes.
struct MftSchedule {
  bool staged = false;        // --stage-timing: events between the stages, summed over pieces
  bool direct_write = false;  // the intensity kernel writes into pinned host memory
  bool overlap = false;       // the call's copy overlaps the next call (copy stream)
  int piece_frames = 1;       // frames the piece buffers hold: the largest piece

  // Frames [0, frames) in as few even pieces of at most piece_frames as can be.
  [[nodiscard]] PieceSplit split(int frames) const {
    PieceSplit s{{0}};
    const int pieces = (frames + piece_frames - 1) / piece_frames;
    for (int p = 1; p <= pieces; ++p)
      s.bounds.push_back(static_cast<int>(static_cast<long long>(frames) * p / pieces));
    return s;
  }
};

// An optical train's work buffers per frame and channel (TrainStage's own count).
std::size_t train_bytes_per_frame(const PsfPlan& plan, std::size_t complex_bytes) {
  const ChannelTrain& c = plan.train->channels.front();
  return complex_bytes == sizeof(DeviceComplex<float>)
             ? TrainStage<float>::bytes_per_frame(c, plan.samples)
             : TrainStage<double>::bytes_per_frame(c, plan.samples);
}

// The folded products (psfsim/cuda/mft_fold.hpp) where they apply: a plan of frames alone
// (metrics and optical trains read the unfolded pupils and fields) on a grid that folds.
std::optional<FoldedAxis> folding(const PsfPlan& plan) {
  if (plan.train || !plan.metrics.empty()) return std::nullopt;
  FoldedAxis axis = fold_axis(plan.sampled_pupil().coordinates);
  if (!axis.worthwhile()) return std::nullopt;
  return axis;
}

// `width`: the pupils' side, N, or the folded layout's P.
MftSchedule choose_schedule(const PsfPlan& plan, std::size_t complex_bytes, int width,
                            bool folded) {
  MftSchedule s;
  const long long n = width;
  const long long k = plan.frame;
  const long long channels = static_cast<long long>(plan.channels.size());
  const long long batch = plan.max_batch;
  s.staged = plan.stage_timing;
  s.direct_write =
      !s.staged && static_cast<std::size_t>(batch) * plan.frame_bytes() <= direct_write_limit;
  s.overlap = !s.staged && !s.direct_write;

  std::size_t bytes_per_frame =
      static_cast<std::size_t>(channels * (n * n + n * k + k * k)) * complex_bytes;
  if (plan.train)
    bytes_per_frame +=
        static_cast<std::size_t>(channels) * train_bytes_per_frame(plan, complex_bytes);
  const long long most = std::clamp<long long>(
      std::min<long long>(static_cast<long long>(piece_buffer_limit / bytes_per_frame),
                          INT_MAX / (folded ? 2 * n : n)),  // the first product's n: frames * N
                                                            // (folded: frames * 2P)
      1, batch);
  s.piece_frames = static_cast<int>(most);
  return s;
}

// open_device() also checks the FFT's shape rules (K <= M), which the MFT does not have: it
// is given a plan that only names the device, the MFT's shape being checked here.
std::string open_mft_device(const PsfPlan& plan) {
  const auto refuse = [&](const std::string& why) {
    throw InputError("cuda backend (mft): " + why + " (N=" + std::to_string(plan.samples) +
                     ", K=" + std::to_string(plan.frame) + ", batch " +
                     std::to_string(plan.max_batch) + ")");
  };
  if (plan.samples < 1 || plan.frame < 1 || plan.max_batch < 1) refuse("invalid plan");
  if (static_cast<long long>(plan.frame) * plan.frame > INT_MAX) refuse("frame too large");
  if (plan.channels.empty()) refuse("no spectral channel");
  double weights = 0.0;
  for (const SpectralChannel& c : plan.channels) {
    if (!std::isfinite(c.pixel_scale) || !std::isfinite(c.phase_scale) ||
        !std::isfinite(c.weight) || c.weight < 0.0)
      refuse("a spectral channel with a non-finite scale or a negative weight");
    weights += c.weight;
  }
  if (!(weights > 0.0)) refuse("the channels' weights sum to zero");
  if (!std::isfinite(plan.pixel_centre)) refuse("non-finite pixel centre");
  PsfPlan device_only;
  device_only.device = plan.device;
  return open_device(device_only);
}

template <typename Real>
class MftBackend final : public PipelinedBackend<Real> {
 public:
  explicit MftBackend(const PsfPlan& plan);
  ~MftBackend() override;

  [[nodiscard]] std::string fused_stages() const override;

 private:
  using Base = PipelinedBackend<Real>;
  using Base::device_name_;
  using Base::pipeline_;
  using Base::plan_;
  using Complex = DeviceComplex<Real>;

  // CallSteps: this backend's part of a call.
  [[nodiscard]] std::size_t table_bus_reads(const BatchTableLayout& layout) const override;
  using Launched = CallSteps::Launched;
  Launched launch_into(const GraphKey& key, void* destination) override;
  cudaStream_t launch(const GraphKey& key) override { return launch_into(key, nullptr).last; }
  [[nodiscard]] StageTimes times(int slot, int frames) const override;

  [[nodiscard]] int channels() const noexcept { return static_cast<int>(plan_.channels.size()); }
  [[nodiscard]] long long piece_elements(long long per_frame) const noexcept {
    return per_frame * schedule_.piece_frames;
  }
  [[nodiscard]] std::size_t pixels() const noexcept { return plan_.frame_elements(); }
  void require_memory() const;
  void upload_constants();
  void issue_pipeline(const GraphKey& key);
  void issue_piece(const GraphKey& key, int piece, int first, int count);
  void issue_copy(int slot, int frames, cudaStream_t stream);
  void issue_products(int count);
  void issue_folded_products(int count);
  void issue_folded_pupils(const GraphKey& key, int first, int count);
  void issue_intensity(const GraphKey& key, int first, int count);
  [[nodiscard]] PupilTiling pupil_tiling(int frames) const;
  void mark(const GraphKey& key, std::size_t index) const;
  [[nodiscard]] StageTimes staged_times(int slot, int frames) const;

  std::optional<FoldedAxis> fold_;
  MftSchedule schedule_;
  int n_ = 0;      // N
  int k_ = 0;      // K
  int width_ = 0;  // the pupils' side: N, or folded, P

  // Released in reverse order, after the pipeline's graphs (CallPipeline::stop) and before
  // its streams: the cuBLAS handle before the buffers it uses. The copy stream takes the
  // device-to-host copies, overlapping the next call's computation.
  Event computed_{cudaEventDisableTiming};  // a call's graph is done: its copy may start
  // A call's timing events, in its slot (CallQueue).
  std::array<Event, call_slots> launch_start_;
  std::array<Event, call_slots> launch_end_;
  // staged: 4 per piece (start, pupil, mft, intensity), end
  std::array<std::vector<Event>, call_slots> stage_marks_;
  DeviceBuffer<double> coordinates_;
  DeviceBuffer<double> phase_scales_;
  DeviceBuffer<Real> weights_;
  DeviceBuffer<Complex> matrices_;  // A_k, row-major K x N, channel after channel
  // Folded: W_k, column-major P x K, channel after channel, and the folded positions.
  DeviceBuffer<Real> folded_matrices_;
  DeviceBuffer<int> fold_positive_;
  DeviceBuffer<int> fold_negative_;
  // Unfolded, complex; folded, the same memory as reals (FoldedPupilLayout, the first
  // product's K x 2P, then real and imaginary K x K planes).
  DeviceBuffer<Complex> pupils_;                              // [channel][frame][r][c]
  DeviceBuffer<Complex> products_;                            // T = P A^T: [channel][frame][r][p]
  DeviceBuffer<Complex> fields_;                              // E = A T: [channel][frame][q][p]
  std::array<DeviceBuffer<Real>, call_slots> device_frames_;  // copied from, by call slot
  // docs/spec.md §7's metrics: parameters, the channels' unnormalized weights and the pupil
  // kernel's wavefront sums; the kernels write the values into the pipeline's pinned memory.
  DeviceMetrics device_metrics_;
  DeviceBuffer<double> raw_weights_;
  DeviceBuffer<double> moments_;
  std::unique_ptr<DeviceEncircledEnergy<Real>> ee_;  // --metrics ee, from the fields propagated
  BlasHandle blas_{pipeline_.stream()};
  std::vector<TrainStage<Real>> trains_;  // one per channel, with an optical train
};

template <typename Real>
MftBackend<Real>::MftBackend(const PsfPlan& plan)
    : Base(plan, open_mft_device(plan), false),
      fold_(folding(plan_)),
      schedule_(choose_schedule(plan_, sizeof(Complex),
                                fold_ ? fold_->layout.width() : plan_.samples, fold_.has_value())),
      n_(plan_.samples),
      k_(plan_.frame),
      width_(fold_ ? fold_->layout.width() : n_) {
  require_memory();
  const long long w = channels();
  pupils_ = DeviceBuffer<Complex>(w * piece_elements(static_cast<long long>(width_) * width_));
  products_ = DeviceBuffer<Complex>(w * piece_elements(static_cast<long long>(width_) * k_));
  fields_ = DeviceBuffer<Complex>(w * piece_elements(static_cast<long long>(k_) * k_));
  const std::size_t batch = static_cast<std::size_t>(plan_.max_batch);
  for (int slot = 0; slot < call_slots && !schedule_.direct_write; ++slot)
    device_frames_[slot] = DeviceBuffer<Real>(batch * pixels());
  const MetricsPlan& metrics = plan_.metrics;
  pipeline_.allocate_outputs(batch * pixels(),
                             metrics.empty() ? 0 : batch * metrics.values_per_frame);
  if (!metrics.empty()) {
    const SampledPupil& facts = plan_.sampled_pupil();
    device_metrics_ = DeviceMetrics(metrics, k_, facts.aperture_sum);
    if (metrics.column(Metric::ee) != nullptr)
      ee_ = std::make_unique<DeviceEncircledEnergy<Real>>(plan_, false, pipeline_.stream());
    if (metrics.column(Metric::rms_wavefront) != nullptr)
      moments_ = DeviceBuffer<double>(3 * static_cast<std::size_t>(schedule_.piece_frames) *
                                      PupilTiling::max_blocks_per_frame(n_));
    std::vector<double> weights;
    for (const SpectralChannel& c : plan_.channels) weights.push_back(c.weight);
    raw_weights_ = DeviceBuffer<double>(weights.size());
    PSFSIM_CUDA_CHECK(cudaMemcpy(raw_weights_.data(), weights.data(),
                                 weights.size() * sizeof(double), cudaMemcpyHostToDevice));
  }
  if (plan_.train)
    for (const ChannelTrain& c : plan_.train->channels)
      trains_.emplace_back(c, plan_.sampled_pupil().coordinates, schedule_.piece_frames,
                           pipeline_.stream());
  if (schedule_.staged) {
    const std::size_t marks =
        4 * static_cast<std::size_t>(schedule_.split(plan_.max_batch).pieces()) + 1;
    for (std::vector<Event>& slot_marks : stage_marks_) slot_marks = std::vector<Event>(marks);
  }
  upload_constants();
}

template <typename Real>
MftBackend<Real>::~MftBackend() {
  pipeline_.stop();
}

template <typename Real>
void MftBackend<Real>::require_memory() const {
  const std::size_t w = plan_.channels.size();
  const std::size_t n = static_cast<std::size_t>(width_);
  const std::size_t k = static_cast<std::size_t>(k_);
  const std::size_t pieces = static_cast<std::size_t>(schedule_.piece_frames);
  const std::size_t batch = static_cast<std::size_t>(plan_.max_batch);
  std::size_t needed = w * pieces * (n * n + n * k + k * k) * sizeof(Complex)  // piece buffers
                       + w * k * n * sizeof(Complex)                           // matrices
                       + 2 * n * sizeof(int) + static_cast<std::size_t>(n_) * sizeof(double) +
                       w * (sizeof(double) + sizeof(Real)) +
                       PupilMapBuffers::bytes(plan_.sampled_pupil()) + BlasHandle::workspace_bytes;
  if (!schedule_.direct_write) needed += call_slots * batch * pixels() * sizeof(Real);
  if (plan_.train)
    for (const ChannelTrain& c : plan_.train->channels)
      needed += TrainStage<Real>::constant_bytes(c, n_, schedule_.piece_frames) +
                pieces * TrainStage<Real>::bytes_per_frame(c, n_);
  if (plan_.metrics.column(Metric::ee) != nullptr)
    needed += DeviceEncircledEnergy<Real>::device_bytes(plan_, false);
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  PSFSIM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (needed + device_memory_reserve > free_bytes)
    throw InputError("cuda backend (mft): N=" + std::to_string(n_) + ", K=" + std::to_string(k_) +
                     ", " + std::to_string(w) + " channel(s), batch " +
                     std::to_string(plan_.max_batch) + " needs " +
                     format_bytes(static_cast<double>(needed + device_memory_reserve)) +
                     " of device memory, " + format_bytes(static_cast<double>(free_bytes)) +
                     " free on " + device_name_ + " (device " + std::to_string(plan_.device) + ")");
  // The pinned output buffers cannot be paged out.
  psfsim::require_memory(call_slots * batch * plan_.frame_bytes(), available_host_memory(),
                         "cuda backend: the pinned output buffers", "host memory");
}

// The grid, the channels' phase scales and weights (the normalization's constant folded in)
// and the Fourier matrices (A_k, psfsim/mft_matrix.hpp), each copied once.
template <typename Real>
void MftBackend<Real>::upload_constants() {
  const SampledPupil& facts = plan_.sampled_pupil();
  const auto upload = [](auto& buffer, const auto& values) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    buffer = std::decay_t<decltype(buffer)>(values.size());
    PSFSIM_CUDA_CHECK(cudaMemcpy(buffer.data(), values.data(), values.size() * sizeof(T),
                                 cudaMemcpyHostToDevice));
  };
  upload(coordinates_, facts.coordinates);
  pipeline_.set_maps(PupilMapBuffers(facts, plan_.max_batch));

  std::vector<double> scales;
  double weight_sum = 0.0;
  for (const SpectralChannel& c : plan_.channels) {
    scales.push_back(c.phase_scale);
    weight_sum += c.weight;
  }
  upload(phase_scales_, scales);
  double constant =
      plan_.normalization == Normalization::peak ? facts.peak_scale / weight_sum : 1.0;
  if (plan_.train && plan_.normalization == Normalization::peak) {
    // Frames in contrast: over the peak of the train without its focal-plane masks.
    double peak = 0.0;
    for (std::size_t c = 0; c < plan_.channels.size(); ++c)
      peak += plan_.channels[c].weight * plan_.train->channels[c].unmasked_peak;
    constant = 1.0 / peak;
  }
  std::vector<Real> weights;
  for (const SpectralChannel& c : plan_.channels)
    weights.push_back(static_cast<Real>(c.weight * constant));
  upload(weights_, weights);

  // Worked out on the host in double, then rounded once to Real.
  if (fold_) {
    upload(fold_positive_, fold_->positive);
    upload(fold_negative_, fold_->negative);
    std::vector<double> folded;
    for (const SpectralChannel& c : plan_.channels)
      write_folded_matrix(*fold_, k_, plan_.pixel_centre, c.pixel_scale, mft_phasor,
                          std::back_inserter(folded));
    std::vector<Real> rounded;
    rounded.reserve(folded.size());
    for (const double v : folded) rounded.push_back(static_cast<Real>(v));
    upload(folded_matrices_, rounded);
    return;
  }
  std::vector<Complex> matrices;
  matrices.reserve(plan_.channels.size() * static_cast<std::size_t>(k_) * facts.coordinates.size());
  for (const SpectralChannel& c : plan_.channels)
    write_mft_matrix(
        MftAxis{facts.coordinates, k_, plan_.pixel_centre, c.pixel_scale},
        [](double turns) {
          const std::complex<double> z = mft_phasor(turns);
          return Complex{static_cast<Real>(z.real()), static_cast<Real>(z.imag())};
        },
        std::back_inserter(matrices));
  upload(matrices_, matrices);
}

template <typename Real>
std::string MftBackend<Real>::fused_stages() const {
  if (schedule_.staged) {
    if (schedule_.split(plan_.max_batch).pieces() == 1) return {};
    return "pupil, mft, intensity: a batch whose buffers would pass " +
           std::to_string(piece_buffer_limit / mib) +
           " MiB is computed in pieces; each stage's time is its sum over the pieces";
  }
  std::string text =
      std::string("pupil+mft+intensity+transfer: one CUDA graph (pupil kernel, two cuBLAS ") +
      (fold_ ? "real products of the pupils folded by the grid's symmetry" : "complex products") +
      ", intensity kernel) timed by one pair of events around its launch; ";
  if (schedule_.direct_write)
    return text + "outputs of at most " + std::to_string(direct_write_limit >> 10) +
           " KiB per call are written by the intensity kernel straight into pinned host memory";
  return text +
         "a larger output is copied to the host after the graph, on a stream of its "
         "own, overlapping the next call's computation; the events span graph and copy "
         "(--stage-timing times each stage instead)";
}

// --stage-timing: the pipeline issued directly, so that the events between the stages time
// this very run. Otherwise the call's graph, recorded on first use, between a pair of events;
// a large output is then copied after it on the copy stream, while the compute stream goes
// on to the next call.
// The copy after the graph may go to a caller's pinned memory (`destination`) as well as the
// slot's: the graph itself never names where the frames end up.
template <typename Real>
auto MftBackend<Real>::launch_into(const GraphKey& key, void* destination) -> Launched {
  const cudaStream_t stream = pipeline_.stream();
  if (schedule_.staged) {
    issue_pipeline(key);
    return {stream, false};
  }
  auto& cached = pipeline_.graph(key, [&] { issue_pipeline(key); });
  const std::size_t s = static_cast<std::size_t>(key.slot);
  if (!plan_.untimed) PSFSIM_CUDA_CHECK(cudaEventRecord(launch_start_[s].get(), stream));
  cached.graph.launch(stream);
  if (schedule_.overlap && plan_.metrics.store_frames) {
    const cudaStream_t copies = pipeline_.copy_stream();
    PSFSIM_CUDA_CHECK(cudaEventRecord(computed_.get(), stream));
    PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(copies, computed_.get(), 0));
    const std::size_t bytes = static_cast<std::size_t>(key.frames) * plan_.frame_bytes();
    if (destination != nullptr)
      PSFSIM_CUDA_CHECK(cudaMemcpyAsync(destination, device_frames_[s].data(), bytes,
                                        cudaMemcpyDeviceToHost, copies));
    else issue_copy(key.slot, key.frames, copies);
    if (!plan_.untimed) PSFSIM_CUDA_CHECK(cudaEventRecord(launch_end_[s].get(), copies));
    return {copies, destination != nullptr};
  }
  if (!plan_.untimed) PSFSIM_CUDA_CHECK(cudaEventRecord(launch_end_[s].get(), stream));
  return {stream, false};
}

template <typename Real>
StageTimes MftBackend<Real>::times(int slot, int frames) const {
  if (schedule_.staged) return staged_times(slot, frames);
  const std::size_t s = static_cast<std::size_t>(slot);
  StageTimes t;
  if (plan_.untimed) return t;
  t.add("pupil+mft+intensity+transfer", elapsed_seconds(launch_start_[s], launch_end_[s]));
  return t;
}

// The MFT's pupil kernels run piece by piece, each reading its frames' tables.
template <typename Real>
std::size_t MftBackend<Real>::table_bus_reads(const BatchTableLayout& layout) const {
  std::size_t bus_reads = 0;
  const PieceSplit split = schedule_.split(layout.frames);
  for (int p = 0; p < split.pieces(); ++p)
    bus_reads += static_cast<std::size_t>(pupil_tiling(split.count(p)).blocks(split.count(p))) *
                 layout.doubles_per_frame() * sizeof(double);
  return bus_reads;
}

// Stage boundary `index` (see stage_marks_); only --stage-timing records any.
template <typename Real>
void MftBackend<Real>::mark(const GraphKey& key, std::size_t index) const {
  if (schedule_.staged)
    PSFSIM_CUDA_CHECK(cudaEventRecord(stage_marks_[static_cast<std::size_t>(key.slot)][index].get(),
                                      pipeline_.stream()));
}

template <typename Real>
StageTimes MftBackend<Real>::staged_times(int slot, int frames) const {
  const std::vector<Event>& stage_marks = stage_marks_[static_cast<std::size_t>(slot)];
  const std::size_t pieces = static_cast<std::size_t>(schedule_.split(frames).pieces());
  std::array<double, 3> sums{};
  for (std::size_t p = 0; p < pieces; ++p)
    for (std::size_t s = 0; s < 3; ++s)
      sums[s] += elapsed_seconds(stage_marks[4 * p + s], stage_marks[4 * p + s + 1]);
  StageTimes t;
  t.add("pupil", sums[0]);
  t.add("mft", sums[1]);
  t.add("intensity", sums[2]);
  t.add("transfer", elapsed_seconds(stage_marks[4 * pieces - 1], stage_marks[4 * pieces]));
  return t;
}

// A call's pipeline: the tables' copy when they go to the device, then each piece's pupils,
// products and intensity on the compute stream. Overlapping, each piece's copy runs on the
// copy stream while the next piece is computed; staged, one copy follows the last piece.
template <typename Real>
void MftBackend<Real>::issue_pipeline(const GraphKey& key) {
  mark(key, 0);
  pipeline_.issue_table_copy(key);
  const PieceSplit split = schedule_.split(key.frames);
  const int pieces = split.pieces();
  for (int p = 0; p < pieces; ++p) {
    if (p > 0) mark(key, 4 * static_cast<std::size_t>(p));
    issue_piece(key, p, split.first(p), split.count(p));
  }
  if (schedule_.staged && plan_.metrics.store_frames) {
    issue_copy(key.slot, key.frames, pipeline_.stream());
    mark(key, 4 * static_cast<std::size_t>(pieces));
  }
}

// The call's frames from the device into its pinned host buffer.
template <typename Real>
void MftBackend<Real>::issue_copy(int slot, int frames, cudaStream_t stream) {
  pipeline_.issue_frame_copy(slot, 0, device_frames_[static_cast<std::size_t>(slot)].data(),
                             static_cast<std::size_t>(frames) * plan_.frame_bytes(), stream);
}

// Frames [first, first + count): pupils, products, intensity into their destination.
template <typename Real>
void MftBackend<Real>::issue_piece(const GraphKey& key, int piece, int first, int count) {
  const cudaStream_t stream = pipeline_.stream();
  const std::size_t marks = 4 * static_cast<std::size_t>(piece);
  if (fold_) {
    issue_folded_pupils(key, first, count);
    mark(key, marks + 1);
    issue_folded_products(count);
    mark(key, marks + 2);
    issue_intensity(key, first, count);
    mark(key, marks + 3);
    return;
  }
  PhaseTables tables = pipeline_.phase_tables(key);
  tables.coefficients += static_cast<std::size_t>(first) * tables.doubles_per_frame();
  tables.frames = count;
  const ChannelPupils shape{n_,
                            plan_.obscuration,
                            coordinates_.data(),
                            phase_scales_.data(),
                            channels(),
                            piece_elements(static_cast<long long>(n_) * n_),
                            pipeline_.maps(key.slot, first)};
  ChannelPupils with_moments = shape;
  with_moments.maps.moments = moments_.data();
  launch_build_channel_pupils<Real>(pupils_.data(), with_moments, tables, stream);
  for (std::size_t c = 0; c < trains_.size(); ++c)
    trains_[c].issue(blas_, pupils_.data() + c * piece_elements(static_cast<long long>(n_) * n_),
                     count, stream);
  mark(key, marks + 1);
  issue_products(count);
  mark(key, marks + 2);
  issue_intensity(key, first, count);
  if (!plan_.metrics.empty()) {
    const std::size_t offset = static_cast<std::size_t>(first) * pixels();
    FieldWindow<Real> window;
    window.fields = fields_.data();
    window.frame_stride = static_cast<long long>(k_) * k_;
    window.row_stride = k_;
    window.channel_stride = piece_elements(static_cast<long long>(k_) * k_);
    window.channels = channels();
    window.weights = raw_weights_.data();
    const WavefrontMoments moments{moments_.data(),
                                   PupilTiling::for_channels(n_, count).blocks_per_frame()};
    double* out =
        pipeline_.metrics_view(key.slot) + offset / pixels() * plan_.metrics.values_per_frame;
    launch_frame_metrics<Real>(window, device_metrics_, moments, count, out, stream);
    if (ee_ != nullptr)  // the very pupils the products transformed
      ee_->from_pupils({pupils_.data(), static_cast<long long>(n_) * n_,
                        piece_elements(static_cast<long long>(n_) * n_), n_, 0, 0, n_, nullptr},
                       count, out, stream);
  }
  mark(key, marks + 3);
}

// The folded pupils of frames [first, first + count), for every channel.
template <typename Real>
void MftBackend<Real>::issue_folded_pupils(const GraphKey& key, int first, int count) {
  PhaseTables tables = pipeline_.phase_tables(key);
  tables.coefficients += static_cast<std::size_t>(first) * tables.doubles_per_frame();
  tables.frames = count;
  FoldedPupils shape;
  shape.samples = n_;
  shape.obscuration = plan_.obscuration;
  shape.coordinate = coordinates_.data();
  shape.positive = fold_positive_.data();
  shape.negative = fold_negative_.data();
  shape.layout = fold_->layout;
  shape.phase_scales = phase_scales_.data();
  shape.channels = channels();
  shape.channel_stride = 2 * piece_elements(static_cast<long long>(width_) * width_);
  shape.maps = pipeline_.maps(key.slot, first);
  launch_build_folded_pupils<Real>(reinterpret_cast<Real*>(pupils_.data()), shape, tables,
                                   pipeline_.stream());
}

// The frames' intensity from the piece's fields, into the call's destination.
template <typename Real>
void MftBackend<Real>::issue_intensity(const GraphKey& key, int first, int count) {
  if (!plan_.metrics.store_frames) return;
  const std::size_t offset = static_cast<std::size_t>(first) * pixels();
  const MftDestination<Real> destination{
      schedule_.direct_write ? pipeline_.frames_view(key.slot) + offset
                             : device_frames_[static_cast<std::size_t>(key.slot)].data() + offset,
      pipeline_.non_finite_view(key.slot)};
  const long long channel_stride = piece_elements(static_cast<long long>(k_) * k_);
  if (fold_) {
    const MftIntensityShape planes{k_ * k_, count, channels(), 2 * channel_stride};
    launch_mft_intensity_planar<Real>(reinterpret_cast<const Real*>(fields_.data()), planes,
                                      weights_.data(), plan_.normalization, destination,
                                      pipeline_.stream());
    return;
  }
  const MftIntensityShape intensity{k_ * k_, count, channels(), channel_stride};
  launch_mft_intensity<Real>(fields_.data(), intensity, weights_.data(), plan_.normalization,
                             destination, pipeline_.stream());
}

// The two products of every frame of the piece, in cuBLAS's column-major terms: a row-major
// R x C matrix is the column-major C x R of its transpose.
//   T = P A^T (N x K): as T^T = A P^T, one product per channel whose n runs over all the
//     piece's frames side by side (their pupils are consecutive N x N blocks);
//   E = A T (K x K): as E^T = T^T A^T, a strided batch over the frames, one per channel,
//     the channel's matrix shared (stride 0).
template <typename Real>
void MftBackend<Real>::issue_products(int count) {
  const long long nk = static_cast<long long>(n_) * k_;
  const int w = channels();
  gemm_strided_batched<Real>(
      blas_, k_, count * n_, n_, {matrices_.data(), n_, nk, true},
      {pupils_.data(), n_, piece_elements(static_cast<long long>(n_) * n_), false},
      products_.data(), k_, piece_elements(nk), w);
  for (int c = 0; c < w; ++c)
    gemm_strided_batched<Real>(blas_, k_, k_, n_,
                               {products_.data() + c * piece_elements(nk), k_, nk, false},
                               {matrices_.data() + c * nk, n_, 0, false},
                               fields_.data() + c * piece_elements(static_cast<long long>(k_) * k_),
                               k_, static_cast<long long>(k_) * k_, count);
}

// The folded products (psfsim/cuda/mft_fold.hpp), real, per channel: X = W^T L^T (K x 2P),
// one product whose n runs over all the piece's frames side by side (each frame's 2P x P
// row-major L is the column-major P x 2P of its transpose); then each half of every frame's
// X times W, a strided batch of 2 x frames, giving the field's real and imaginary K x K
// planes in turn.
template <typename Real>
void MftBackend<Real>::issue_folded_products(int count) {
  const long long pk = static_cast<long long>(width_) * k_;
  const long long pupil_reals = 2 * piece_elements(static_cast<long long>(width_) * width_);
  const long long product_reals = 2 * piece_elements(pk);
  const long long field_reals = 2 * piece_elements(static_cast<long long>(k_) * k_);
  Real* pupils = reinterpret_cast<Real*>(pupils_.data());
  Real* products = reinterpret_cast<Real*>(products_.data());
  Real* fields = reinterpret_cast<Real*>(fields_.data());
  const int w = channels();
  real_gemm_strided_batched<Real>(
      blas_, k_, 2 * width_ * count, width_, {folded_matrices_.data(), width_, pk, true},
      {pupils, width_, pupil_reals, false}, products, k_, product_reals, w);
  for (int c = 0; c < w; ++c)
    real_gemm_strided_batched<Real>(
        blas_, k_, k_, width_, {products + c * product_reals, k_, pk, false},
        {folded_matrices_.data() + c * pk, width_, 0, false}, fields + c * field_reals, k_,
        static_cast<long long>(k_) * k_, 2 * count);
}

// How the pupil kernel of this plan splits `frames` among blocks.
template <typename Real>
PupilTiling MftBackend<Real>::pupil_tiling(int frames) const {
  return fold_ ? folded_pupil_tiling(fold_->layout, frames) : PupilTiling::for_channels(n_, frames);
}

}  // namespace

std::unique_ptr<Backend> make_mft_backend(const PsfPlan& plan) {
  if (plan.precision == Precision::single) return std::make_unique<MftBackend<float>>(plan);
  return std::make_unique<MftBackend<double>>(plan);
}

}  // namespace psfsim::cuda

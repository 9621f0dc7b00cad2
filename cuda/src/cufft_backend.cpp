#include "cufft_backend.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "call_queue.hpp"
#include "cuda_check.hpp"
#include "device_info.hpp"
#include "device_memory.hpp"
#include "execution_policy.hpp"
#include "graph_cache.hpp"
#include "intensity_kernel.hpp"
#include "metrics_kernel.hpp"
#include "phase_table_packing.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/memory_budget.hpp"
#include "psfsim/pupil_math.hpp"
#include "pupil_kernel.hpp"
#include "pupil_map_buffers.hpp"
#include "spectrum_transform.hpp"
#include "stage_clock.hpp"
#include "stream_and_events.hpp"

namespace psfsim::cuda {
namespace {

// Figures quoted below were measured on the H200 of the GPU machine (CUDA 13.0).

// Left free for what cuFFT, graphs and the context allocate beyond our own estimate.
constexpr std::size_t device_memory_reserve = std::size_t{64} << 20;
// Up to this many bytes read by all pupil blocks together, the kernel reads the phase
// tables from pinned host memory rather than after a copy node (about 8 us).
constexpr std::size_t host_table_read_limit = std::size_t{1} << 20;

template <typename Real>
class CufftBackend final : public Backend {
 public:
  explicit CufftBackend(const PsfPlan& plan);
  ~CufftBackend() override;

  [[nodiscard]] std::string name() const override { return "cuda"; }
  [[nodiscard]] std::string device_name() const override { return device_name_; }
  [[nodiscard]] const PsfPlan& plan() const override { return plan_; }
  [[nodiscard]] std::string fused_stages() const override { return policy_.fused_stages(); }
  [[nodiscard]] double plan_seconds() const override { return plan_seconds_; }
  [[nodiscard]] FrameBlock compute(std::span<const AberrationPolynomial> frames) override {
    submit(frames);
    return finish();
  }
  // The phase tables are packed and the batch indices copied there.
  [[nodiscard]] bool copies_frames_at_submit() const override { return true; }
  void submit(std::span<const AberrationPolynomial> frames) override;
  [[nodiscard]] FrameBlock finish() override;

 private:
  using Complex = DeviceComplex<Real>;

  [[nodiscard]] bool stores_frames() const noexcept { return plan_.metrics.store_frames; }
  [[nodiscard]] bool needs_device_frames() const noexcept {
    return stores_frames() &&
           (!policy_.direct_write || plan_.normalization == Normalization::sum);
  }
  [[nodiscard]] std::size_t field_elements() const noexcept {
    return static_cast<std::size_t>(plan_.padded) * plan_.padded;
  }
  [[nodiscard]] std::size_t pupil_elements() const noexcept {
    return static_cast<std::size_t>(pupil_shape_.rows.rows) * plan_.padded;
  }
  // --store metrics through the split transform: its column pass keeps |X|^2 alone, in the
  // spectrum buffer (M x M values of Real a frame), and the metrics read that.
  [[nodiscard]] bool keeps_intensity_only() const noexcept {
    return pupil_shape_.rows.split && !stores_frames();
  }
  [[nodiscard]] Real* intensity_planes() const noexcept {
    return reinterpret_cast<Real*>(spectrum_.data());
  }
  // The MTF's transforms of real planes keep the non-redundant half: M x (M/2 + 1).
  [[nodiscard]] std::size_t half_plane_elements() const noexcept {
    return static_cast<std::size_t>(plan_.padded) * (plan_.padded / 2 + 1);
  }
  // A call's transforms, for `batch` frames: the spectra and, for the MTF, the
  // real-to-complex FFT of the |X|^2 planes.
  struct Transforms {
    std::unique_ptr<SpectrumTransform<Real>> spectrum;
    std::unique_ptr<FftPlan> otf;
  };
  [[nodiscard]] Transforms make_transforms(long long batch) const;
  [[nodiscard]] std::size_t transforms_scratch_bytes(long long batch) const;
  [[nodiscard]] PhaseTables phase_tables(const GraphKey& key) const noexcept;
  // The pupil kernel's shape for a call in `slot`, from call frame `first` on.
  [[nodiscard]] PupilShape pupil_shape(int slot, int first = 0) const noexcept {
    PupilShape shape = pupil_shape_;
    shape.maps = maps_.maps(slot, first);
    shape.maps.moments = moments_.data();
    return shape;
  }
  void require_device_memory() const;
  GraphKey stage_phase_tables(std::span<const AberrationPolynomial> frames, int slot);
  void issue_pipeline(const GraphKey& key);
  void issue_pupil_and_fft(const GraphKey& key, int first, int count, const Transforms& fft);
  void issue_intensity(const GraphKey& key, int first, int count);
  void issue_metrics(const GraphKey& key, int first, int count, const Transforms& fft,
                     int pupil_blocks_per_frame);
  void mark(const GraphKey& key, int stage) const {
    clocks_[static_cast<std::size_t>(key.slot)].mark(stage, stream_.get());
  }

  PsfPlan plan_;
  double plan_seconds_ = 0.0;  // buffers and transforms, after the device is open
  std::string device_name_;  // initialized by opening the device, before any CUDA object
  ExecutionPolicy policy_;
  double peak_scale_ = 1.0;
  PupilShape pupil_shape_;

  // Members are released in reverse order: graphs before the plan and buffers they use,
  // the streams last.
  Stream stream_;
  Stream copy_stream_;  // device-to-host copies, overlapping the intensity of later pieces
  Event piece_ready_{cudaEventDisableTiming};
  Event copies_done_{cudaEventDisableTiming};
  std::array<StageClock, call_slots> clocks_{StageClock{policy_.timing},
                                             StageClock{policy_.timing},
                                             StageClock{policy_.timing}};
  DeviceBuffer<double> grid_table_;
  PupilMapBuffers maps_;            // docs/spec.md §7's amplitude and OPD maps, uploaded once
  DeviceBuffer<Complex> pupil_;     // zero padding written once, window every call
  DeviceBuffer<Complex> spectrum_;  // out-of-place FFT result (or |X|^2 alone)
  DeviceBuffer<Real> device_frames_;
  DeviceBuffer<double> block_sums_;
  DeviceBuffer<double> frame_scales_;
  std::array<PinnedBuffer<Real>, call_slots> host_frames_;  // one per call slot
  std::array<Real*, call_slots> host_frames_view_{};
  // docs/spec.md §7's metrics: their parameters, the pupil kernel's wavefront sums, the MTF's |X|^2
  // planes (where the transform keeps the spectrum) and transforms, and the values, written
  // by the kernels into pinned host memory.
  DeviceMetrics device_metrics_;
  DeviceBuffer<double> moments_;
  DeviceBuffer<Real> mtf_planes_;
  DeviceBuffer<Complex> otf_;
  DeviceBuffer<MtfSample> mtf_samples_;
  std::array<PinnedBuffer<double>, call_slots> host_metrics_;
  std::array<double*, call_slots> host_metrics_view_{};
  InlineTables inline_tables_{};
  std::array<PinnedBuffer<double>, call_slots> staged_tables_;
  std::array<double*, call_slots> staged_tables_view_{};
  DeviceBuffer<double> tables_;  // copied from a call's staged tables by its graph
  Transforms fft_;        // max_batch frames
  Transforms piece_fft_;  // Timing::pieced: piece_frames
  GraphCache<Real> graphs_;
  CallQueue calls_;
};

template <typename Real>
CufftBackend<Real>::CufftBackend(const PsfPlan& plan)
    : plan_(plan), device_name_(open_device(plan)), policy_(choose_execution_policy(plan_)) {
  const auto start = CallQueue::Clock::now();
  const SampledPupil& facts = plan_.sampled_pupil();
  peak_scale_ = facts.peak_scale;
  pupil_shape_ = {plan_.samples, plan_.padded, facts.offset, plan_.obscuration,
                  nullptr,       nullptr,       {},
                  PupilRows::choose(plan_.samples, plan_.padded, facts.offset, true)};

  const std::size_t batch = static_cast<std::size_t>(plan_.max_batch);
  require_device_memory();
  pupil_ = DeviceBuffer<Complex>(policy_.buffer_frames() * pupil_elements());
  spectrum_ = DeviceBuffer<Complex>(policy_.buffer_frames() * field_elements());
  PSFSIM_CUDA_CHECK(cudaMemset(pupil_.data(), 0, pupil_.bytes()));
  if (needs_device_frames()) device_frames_ = DeviceBuffer<Real>(batch * plan_.frame_elements());
  if (plan_.normalization == Normalization::sum) {
    block_sums_ = DeviceBuffer<double>(IntensityTiling::max_blocks(plan_.frame, plan_.max_batch));
    frame_scales_ = DeviceBuffer<double>(batch);
  }
  for (int slot = 0; slot < call_slots && stores_frames(); ++slot) {
    host_frames_[slot] = PinnedBuffer<Real>(batch * plan_.frame_elements());
    host_frames_view_[slot] = device_view(host_frames_[slot]);
  }
  const MetricsPlan& metrics = plan_.metrics;
  if (!metrics.empty()) {
    device_metrics_ = DeviceMetrics(metrics, plan_.frame, facts.aperture_sum, facts.energy_sum);
    for (int slot = 0; slot < call_slots; ++slot) {
      host_metrics_[slot] = PinnedBuffer<double>(batch * metrics.values_per_frame);
      host_metrics_view_[slot] = device_view(host_metrics_[slot]);
    }
    if (metrics.column(Metric::rms_wavefront) != nullptr)
      moments_ = DeviceBuffer<double>(3 * batch *
                                      PupilTiling::max_blocks_per_frame(plan_.samples));
    if (metrics.needs_full_plane()) {
      const std::vector<MtfSample> samples = mtf_samples(device_metrics_, plan_.padded);
      mtf_samples_ = DeviceBuffer<MtfSample>(samples.size());
      PSFSIM_CUDA_CHECK(cudaMemcpy(mtf_samples_.data(), samples.data(), mtf_samples_.bytes(),
                                   cudaMemcpyHostToDevice));
      device_metrics_.mtf_samples = mtf_samples_.data();
      if (!keeps_intensity_only())
        mtf_planes_ = DeviceBuffer<Real>(policy_.buffer_frames() * field_elements());
      otf_ = DeviceBuffer<Complex>(policy_.buffer_frames() * half_plane_elements());
    }
  }

  // The pupil kernel's lookup tables: coordinate(i) for i in [0, N), then shift_waves(n)
  // for n in [0, M).
  grid_table_ = DeviceBuffer<double>(facts.coordinates.size() + facts.shift_waves.size());
  PSFSIM_CUDA_CHECK(cudaMemcpy(grid_table_.data(), facts.coordinates.data(),
                               facts.coordinates.size() * sizeof(double), cudaMemcpyHostToDevice));
  PSFSIM_CUDA_CHECK(cudaMemcpy(grid_table_.data() + facts.coordinates.size(),
                               facts.shift_waves.data(), facts.shift_waves.size() * sizeof(double),
                               cudaMemcpyHostToDevice));
  pupil_shape_.coordinate = grid_table_.data();
  pupil_shape_.shift_waves = grid_table_.data() + plan_.samples;
  maps_ = PupilMapBuffers(facts, plan_.max_batch);

  // One set of transforms serves every call: a shorter batch transforms a few stale frames too.
  fft_ = make_transforms(plan_.max_batch);
  if (policy_.timing == Timing::pieced) piece_fft_ = make_transforms(policy_.piece_frames);
  plan_seconds_ = std::chrono::duration<double>(CallQueue::Clock::now() - start).count();
}

template <typename Real>
typename CufftBackend<Real>::Transforms CufftBackend<Real>::make_transforms(
    long long batch) const {
  Transforms t;
  t.spectrum = std::make_unique<SpectrumTransform<Real>>(
      plan_.samples, plan_.padded, pupil_shape_.offset, batch, true, stream_.get());
  if (plan_.metrics.needs_full_plane())
    t.otf = std::make_unique<FftPlan>(FftShape{plan_.padded, batch, 2, FftInput::real},
                                      plan_.precision, stream_.get());
  return t;
}

template <typename Real>
std::size_t CufftBackend<Real>::transforms_scratch_bytes(long long batch) const {
  std::size_t bytes =
      SpectrumTransform<Real>::scratch_bytes(pupil_shape_.rows, plan_.samples, plan_.padded,
                                             batch);
  if (plan_.metrics.needs_full_plane())
    bytes += FftPlan::work_bytes({plan_.padded, batch, 2, FftInput::real}, plan_.precision);
  return bytes;
}

template <typename Real>
CufftBackend<Real>::~CufftBackend() {
  // Nothing may still run on buffers about to be freed; errors here are past caring about.
  if (cudaSetDevice(plan_.device) == cudaSuccess) cudaStreamSynchronize(stream_.get());
  cudaGetLastError();
}

template <typename Real>
void CufftBackend<Real>::require_device_memory() const {
  const std::size_t batch = static_cast<std::size_t>(plan_.max_batch);
  std::size_t needed =
      policy_.buffer_frames() * (pupil_elements() + field_elements()) * sizeof(Complex)
      + (plan_.samples + plan_.padded) * sizeof(double)                 // grid table
      + PupilMapBuffers::bytes(plan_.sampled_pupil());
  if (needs_device_frames()) needed += batch * plan_.frame_elements() * sizeof(Real);
  if (plan_.metrics.needs_full_plane())
    needed += policy_.buffer_frames() *
               (half_plane_elements() * sizeof(Complex) +
                (keeps_intensity_only() ? 0 : field_elements() * sizeof(Real)));
  if (plan_.metrics.column(Metric::rms_wavefront) != nullptr)
    needed += 3 * batch * PupilTiling::max_blocks_per_frame(plan_.samples) * sizeof(double);
  if (plan_.normalization == Normalization::sum)
    needed += (IntensityTiling::max_blocks(plan_.frame, plan_.max_batch) + batch) * sizeof(double);

  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  PSFSIM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const auto refuse = [&](std::size_t bytes) {
    throw InputError("cuda backend: N=" + std::to_string(plan_.samples) + ", M=" +
                     std::to_string(plan_.padded) + ", batch " + std::to_string(plan_.max_batch) +
                     " needs " + format_bytes(static_cast<double>(bytes)) + " of device memory, " +
                     format_bytes(static_cast<double>(free_bytes)) + " free on " + device_name_ +
                     " (device " + std::to_string(plan_.device) + ")");
  };
  // Buffers alone first, so that an absurd size never reaches cuFFT's planner.
  if (needed + device_memory_reserve > free_bytes) refuse(needed + device_memory_reserve);
  needed += transforms_scratch_bytes(plan_.max_batch);
  if (policy_.timing == Timing::pieced) needed += transforms_scratch_bytes(policy_.piece_frames);
  if (needed + device_memory_reserve > free_bytes) refuse(needed + device_memory_reserve);

  // The pinned output buffers cannot be paged out.
  require_memory(call_slots * ((stores_frames() ? batch * plan_.frame_bytes() : 0) +
                               batch * plan_.metrics.values_per_frame * sizeof(double)),
                 available_host_memory(), "cuda backend: the pinned output buffers",
                 "host memory");
}

template <typename Real>
void CufftBackend<Real>::submit(std::span<const AberrationPolynomial> frames) {
  const auto start = CallQueue::Clock::now();
  const int count = static_cast<int>(frames.size());
  if (count < 1 || count > plan_.max_batch)
    throw InputError("cuda backend: " + std::to_string(count) +
                     " frames given, the plan holds 1 to " + std::to_string(plan_.max_batch));
  select_device(plan_.device);

  const int slot = calls_.next_slot(name());
  const GraphKey key = stage_phase_tables(frames, slot);
  maps_.set_frames(frames, slot);
  const cudaStream_t stream = stream_.get();
  auto& cached = graphs_.find_or_record(key, inline_tables_, stream, [&] { issue_pipeline(key); });
  if (key.tables == TableSource::parameters)
    GraphCache<Real>::update_inline_tables(cached, inline_tables_, pupil_.data(),
                                           pupil_shape(slot));
  const StageClock& clock = clocks_[static_cast<std::size_t>(slot)];
  clock.before_launch(stream);
  cached.graph.launch(stream);
  clock.after_launch(stream);
  calls_.push(frames.size(), start, stream);
}

template <typename Real>
FrameBlock CufftBackend<Real>::finish() {
  select_device(plan_.device);
  double added = 0.0;
  const CallQueue::Call call = calls_.pop(name(), added);
  const std::size_t slot = static_cast<std::size_t>(call.slot);
  FrameBlock block;
  block.data = stores_frames() ? host_frames_[slot].data() : nullptr;
  block.metrics = plan_.metrics.empty() ? nullptr : host_metrics_[slot].data();
  block.frames = call.frames;
  block.times = clocks_[slot].times();
  block.times.total = added;
  return block;
}

template <typename Real>
PhaseTables CufftBackend<Real>::phase_tables(const GraphKey& key) const noexcept {
  const double* where =
      key.tables == TableSource::host_memory   ? staged_tables_view_[static_cast<std::size_t>(key.slot)]
      : key.tables == TableSource::device_copy ? tables_.data()
                                               : nullptr;
  return key.phase_tables(where);
}

// Lays the batch's tables out for the pupil kernel: in its launch parameters when they fit,
// else in pinned staging memory.
template <typename Real>
GraphKey CufftBackend<Real>::stage_phase_tables(std::span<const AberrationPolynomial> frames,
                                                int slot) {
  const BatchTableLayout layout = batch_table_layout(frames);
  if (layout.degree > max_phase_degree)
    throw InputError("cuda backend: phase polynomial of degree " + std::to_string(layout.degree) +
                     " (at most " + std::to_string(max_phase_degree) + ")");
  GraphKey key{layout.frames, layout.degree, layout.with_rho, TableSource::parameters, slot};
  if (layout.doubles() <= InlineTables::capacity) {
    pack_phase_tables(frames, layout, inline_tables_.values);
    return key;
  }
  PinnedBuffer<double>& staged = staged_tables_[static_cast<std::size_t>(slot)];
  if (layout.doubles() > staged.size()) {
    // Sized for a full batch of this layout so that later calls do not grow it again.
    const std::size_t capacity = plan_.max_batch * layout.doubles_per_frame();
    PSFSIM_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));  // calls in flight read them
    graphs_.clear();  // they read the buffers replaced here
    staged = PinnedBuffer<double>(capacity);
    staged_tables_view_[static_cast<std::size_t>(slot)] = device_view(staged);
    if (tables_.size() < capacity) tables_ = DeviceBuffer<double>(capacity);
  }
  pack_phase_tables(frames, layout, staged.data());
  const std::size_t bus_reads =
      static_cast<std::size_t>(
          PupilTiling::for_batch(plan_.samples, layout.frames).blocks(layout.frames)) *
      layout.doubles_per_frame() * sizeof(double);
  key.tables =
      bus_reads <= host_table_read_limit ? TableSource::host_memory : TableSource::device_copy;
  return key;
}

// A call's pipeline, issued for recording. Pupil and FFT run once for the whole batch, or,
// pieced, once per piece: piece p's copy (copy stream) then runs while piece p+1's pupil, FFT
// and intensity run (compute stream). Output that goes through the copy engine is computed
// and copied piece by piece either way. Stage marks are recorded only with the staged and
// fused_copy timings, which never piece the pupil and FFT.
template <typename Real>
void CufftBackend<Real>::issue_pipeline(const GraphKey& key) {
  // Tables in the launch parameters cannot be split by piece; only small batches have them.
  const bool pieced = policy_.timing == Timing::pieced && key.tables != TableSource::parameters;
  const cudaStream_t stream = stream_.get();
  const cudaStream_t copies = copy_stream_.get();
  mark(key, 0);
  if (key.tables == TableSource::device_copy)
    PSFSIM_CUDA_CHECK(cudaMemcpyAsync(tables_.data(),
                                      staged_tables_[static_cast<std::size_t>(key.slot)].data(),
                                      static_cast<std::size_t>(key.frames) *
                                          phase_tables(key).doubles_per_frame() * sizeof(double),
                                      cudaMemcpyHostToDevice, stream));
  if (!pieced) issue_pupil_and_fft(key, 0, key.frames, fft_);  // max_batch transforms
  if (!stores_frames()) {  // --store metrics: no frame leaves the device
    const FrameSplit split = policy_.copy_pieces(key.frames, pieced);
    for (int p = 0; pieced && p < split.pieces; ++p)
      issue_pupil_and_fft(key, split.first(p), split.first(p + 1) - split.first(p), piece_fft_);
    mark(key, 3);
    mark(key, 4);
    return;
  }
  if (policy_.direct_write) {  // never pieced: pieces exist for the copies
    issue_intensity(key, 0, key.frames);
    mark(key, 3);
    return;
  }
  PSFSIM_CUDA_CHECK(cudaEventRecord(piece_ready_.get(), stream));  // fork the copy stream
  PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(copies, piece_ready_.get(), 0));
  // Pieces of whole frames: the copy engine takes each piece while the next is computed.
  const FrameSplit split = policy_.copy_pieces(key.frames, pieced);
  for (int p = 0; p < split.pieces; ++p) {
    const int first = split.first(p);
    const int count = split.first(p + 1) - first;
    if (pieced) issue_pupil_and_fft(key, first, count, piece_fft_);
    issue_intensity(key, first, count);
    PSFSIM_CUDA_CHECK(cudaEventRecord(piece_ready_.get(), stream));
    PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(copies, piece_ready_.get(), 0));
    const std::size_t offset = static_cast<std::size_t>(first) * plan_.frame_elements();
    PSFSIM_CUDA_CHECK(cudaMemcpyAsync(host_frames_[key.slot].data() + offset,
                                      device_frames_.data() + offset, count * plan_.frame_bytes(),
                                      cudaMemcpyDeviceToHost, copies));
  }
  mark(key, 3);  // all intensities are computed; copies may still be running
  PSFSIM_CUDA_CHECK(cudaEventRecord(copies_done_.get(), copies));  // join
  PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(stream, copies_done_.get(), 0));
  mark(key, 4);
}

// Pupil and FFT of frames [first, first + count). The FFT transforms as many frames as `fft`
// was planned for: max_batch for the whole batch, stale frames too; piece_frames for a piece,
// past the batch's end for the last piece (the buffers hold whole pieces; those results are
// never read).
template <typename Real>
void CufftBackend<Real>::issue_pupil_and_fft(const GraphKey& key, int first, int count,
                                             const Transforms& fft) {
  const std::size_t field_offset = static_cast<std::size_t>(first) * field_elements();
  Complex* pupil = pupil_.data() + static_cast<std::size_t>(first) * pupil_elements();
  PhaseTables tables = phase_tables(key);
  tables.coefficients += static_cast<std::size_t>(first) * tables.doubles_per_frame();
  tables.frames = count;
  const PupilShape shape = pupil_shape(key.slot, first);
  launch_build_pupil<Real>(pupil, shape, tables,
                           key.tables == TableSource::parameters ? &inline_tables_ : nullptr,
                           stream_.get());
  mark(key, 1);
  if (keeps_intensity_only())
    fft.spectrum->forward_intensity(pupil, intensity_planes() + field_offset);
  else
    fft.spectrum->forward(pupil, spectrum_.data() + field_offset);
  mark(key, 2);
  if (!plan_.metrics.empty())
    issue_metrics(key, first, count, fft,
                  PupilTiling::for_batch(plan_.samples, count).blocks_per_frame());
}

// Metrics of frames [first, first + count), from their spectra, right after their FFT (a
// piece's spectra are overwritten by the next piece's).
template <typename Real>
void CufftBackend<Real>::issue_metrics(const GraphKey& key, int first, int count,
                                       const Transforms& fft, int pupil_blocks_per_frame) {
  const cudaStream_t stream = stream_.get();
  const std::size_t field_offset = static_cast<std::size_t>(first) * field_elements();
  const Complex* spectrum = spectrum_.data() + field_offset;
  FieldWindow<Real> window;
  if (keeps_intensity_only())
    window.intensity = intensity_planes() + field_offset;
  else
    window.fields = spectrum;
  window.frame_stride = static_cast<long long>(field_elements());
  window.row_stride = plan_.padded;
  window.first = pupil::crop_start(plan_.padded, plan_.frame);
  double* out = host_metrics_view_[key.slot] + static_cast<std::size_t>(first) *
                                                   plan_.metrics.values_per_frame;
  launch_frame_metrics<Real>(window, device_metrics_,
                             WavefrontMoments{moments_.data(), pupil_blocks_per_frame}, count, out,
                             stream);
  if (!plan_.metrics.needs_full_plane()) return;
  Real* planes = window.intensity != nullptr ? intensity_planes() + field_offset
                                             : mtf_planes_.data() + field_offset;
  if (window.intensity == nullptr)
    launch_plane_intensity<Real>(planes, spectrum, plan_.padded, count, stream);
  Complex* otf = otf_.data() + static_cast<std::size_t>(first) * half_plane_elements();
  fft.otf->forward(planes, otf);
  launch_mtf_sampling<Real>(otf, plan_.padded, count, device_metrics_, out, stream);
}

// Intensity of frames [first, first + count): into pinned host memory, or into the device
// frames that the copies read.
template <typename Real>
void CufftBackend<Real>::issue_intensity(const GraphKey& key, int first, int count) {
  const std::size_t offset = first * plan_.frame_elements();
  const IntensityShape shape{plan_.padded, plan_.frame,
                             pupil::crop_start(plan_.padded, plan_.frame), count,
                             IntensityTiling::for_batch(plan_.frame, count)};
  Real* device_frames = device_frames_.data() ? device_frames_.data() + offset : nullptr;
  // Pieces run in stream order, so they share the sum scratch.
  const IntensityOutput<Real> output{
      policy_.direct_write ? host_frames_view_[key.slot] + offset : device_frames, device_frames,
      block_sums_.data(), frame_scales_.data()};
  launch_intensity<Real>(spectrum_.data() + first * field_elements(), shape, plan_.normalization,
                         peak_scale_, output, stream_.get());
}

}  // namespace

std::unique_ptr<Backend> make_cufft_backend(const PsfPlan& plan) {
  if (plan.precision == Precision::single) return std::make_unique<CufftBackend<float>>(plan);
  return std::make_unique<CufftBackend<double>>(plan);
}

}  // namespace psfsim::cuda

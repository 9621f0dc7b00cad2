#include "cufft_backend.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_info.hpp"
#include "device_memory.hpp"
#include "encircled_energy.hpp"
#include "execution_policy.hpp"
#include "intensity_kernel.hpp"
#include "metrics_kernel.hpp"
#include "pipelined_backend.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/memory_budget.hpp"
#include "psfsim/pupil_math.hpp"
#include "pupil_kernel.hpp"
#include "pupil_map_buffers.hpp"
#include "field_transform.hpp"
#include "stage_clock.hpp"

namespace psfsim::cuda {
namespace {

// Figures quoted below were measured on the H200 of the GPU machine (CUDA 13.0).

// Left free for what cuFFT, graphs and the context allocate beyond our own estimate.
constexpr std::size_t device_memory_reserve = std::size_t{64} << 20;

template <typename Real>
class CufftBackend final : public PipelinedBackend<Real> {
 public:
  explicit CufftBackend(const PsfPlan& plan);
  ~CufftBackend() override;

  [[nodiscard]] std::string fused_stages() const override { return policy_.fused_stages(); }
  [[nodiscard]] double plan_seconds() const override { return plan_seconds_; }

 private:
  using Base = PipelinedBackend<Real>;
  using Base::device_name_;
  using Base::pipeline_;
  using Base::plan_;
  using Complex = DeviceComplex<Real>;

  // CallSteps: this backend's part of a call.
  [[nodiscard]] std::size_t table_bus_reads(const BatchTableLayout& layout) const override;
  cudaStream_t launch(const GraphKey& key) override;
  [[nodiscard]] StageTimes times(int slot, int) const override {
    return clocks_[static_cast<std::size_t>(slot)].times();
  }

  [[nodiscard]] bool stores_frames() const noexcept { return plan_.metrics.store_frames; }
  [[nodiscard]] bool needs_device_frames() const noexcept {
    return stores_frames() && (!policy_.direct_write || plan_.normalization == Normalization::sum);
  }
  [[nodiscard]] std::size_t field_elements() const noexcept {
    return static_cast<std::size_t>(plan_.padded) * plan_.padded;
  }
  [[nodiscard]] std::size_t pupil_elements() const noexcept {
    return static_cast<std::size_t>(pupil_shape_.rows.rows) * plan_.padded;
  }
  // --store metrics through the split transform: its column pass keeps |X|^2 alone, in the
  // field buffer (M x M values of Real a frame), and the metrics read that.
  [[nodiscard]] bool keeps_intensity_only() const noexcept {
    return pupil_shape_.rows.split && !stores_frames();
  }
  [[nodiscard]] Real* intensity_planes() const noexcept {
    return reinterpret_cast<Real*>(fields_.data());
  }
  // The MTF's transforms of real planes keep the non-redundant half: M x (M/2 + 1).
  [[nodiscard]] std::size_t half_plane_elements() const noexcept {
    return static_cast<std::size_t>(plan_.padded) * (plan_.padded / 2 + 1);
  }
  // A call's transforms, for `batch` frames: the focal-plane fields and, for the MTF, the
  // real-to-complex FFT of the |X|^2 planes.
  struct Transforms {
    std::unique_ptr<FieldTransform<Real>> field;
    std::unique_ptr<FftPlan> otf;
  };
  [[nodiscard]] Transforms make_transforms(long long batch) const;
  [[nodiscard]] std::size_t transforms_scratch_bytes(long long batch) const;
  // The pupil kernel's shape for a call in `slot`, from call frame `first` on.
  [[nodiscard]] PupilShape pupil_shape(int slot, int first = 0) const noexcept {
    PupilShape shape = pupil_shape_;
    shape.maps = pipeline_.maps(slot, first);
    shape.maps.moments = moments_.data();
    return shape;
  }
  void require_device_memory() const;
  void issue_pipeline(const GraphKey& key);
  void issue_pupil_and_fft(const GraphKey& key, int first, int count, const Transforms& fft);
  void issue_intensity(const GraphKey& key, int first, int count);
  void issue_metrics(const GraphKey& key, int first, int count, const Transforms& fft,
                     int pupil_blocks_per_frame);
  void mark(const GraphKey& key, int stage) const {
    clocks_[static_cast<std::size_t>(key.slot)].mark(stage, pipeline_.stream());
  }

  double plan_seconds_ = 0.0;  // buffers and transforms, after the device is open
  ExecutionPolicy policy_;
  double peak_scale_ = 1.0;
  PupilShape pupil_shape_;

  // Members are released in reverse order, after the pipeline's graphs (CallPipeline::stop)
  // and before its streams. The copy stream takes the device-to-host copies, overlapping the
  // intensity of later pieces.
  Event piece_ready_{cudaEventDisableTiming};
  Event copies_done_{cudaEventDisableTiming};
  std::array<StageClock, call_slots> clocks_{StageClock{policy_.timing, !plan_.untimed},
                                             StageClock{policy_.timing, !plan_.untimed},
                                             StageClock{policy_.timing, !plan_.untimed}};
  DeviceBuffer<double> grid_table_;
  DeviceBuffer<Complex> pupil_;   // zero padding written once, window every call
  DeviceBuffer<Complex> fields_;  // focal-plane fields, the out-of-place FFT (or |X|^2 alone)
  DeviceBuffer<Real> device_frames_;
  DeviceBuffer<double> block_sums_;
  DeviceBuffer<double> frame_scales_;
  // docs/spec.md §7's metrics: their parameters, the pupil kernel's wavefront sums, the MTF's
  // |X|^2 planes (where the transform keeps the field) and transforms; the kernels write
  // the values into the pipeline's pinned host memory.
  DeviceMetrics device_metrics_;
  DeviceBuffer<double> moments_;
  DeviceBuffer<Real> mtf_planes_;
  DeviceBuffer<Complex> otf_;
  DeviceBuffer<MtfSample> mtf_samples_;
  Transforms fft_;        // max_batch frames
  Transforms piece_fft_;  // Timing::pieced: piece_frames
  // --metrics ee (encircled_energy.hpp)
  std::unique_ptr<DeviceEncircledEnergy<Real>> ee_;
};

template <typename Real>
CufftBackend<Real>::CufftBackend(const PsfPlan& plan)
    : Base(plan, open_device(plan), true), policy_(choose_execution_policy(plan_)) {
  const auto start = CallQueue::Clock::now();
  const SampledPupil& facts = plan_.sampled_pupil();
  peak_scale_ = facts.peak_scale;
  pupil_shape_ = {plan_.samples,
                  plan_.padded,
                  facts.offset,
                  plan_.obscuration,
                  nullptr,
                  nullptr,
                  {},
                  PupilRows::choose(plan_.samples, plan_.padded, facts.offset, true)};

  const std::size_t batch = static_cast<std::size_t>(plan_.max_batch);
  require_device_memory();
  pupil_ = DeviceBuffer<Complex>(policy_.buffer_frames() * pupil_elements());
  fields_ = DeviceBuffer<Complex>(policy_.buffer_frames() * field_elements());
  PSFSIM_CUDA_CHECK(cudaMemset(pupil_.data(), 0, pupil_.bytes()));
  if (needs_device_frames()) device_frames_ = DeviceBuffer<Real>(batch * plan_.frame_elements());
  if (plan_.normalization == Normalization::sum) {
    block_sums_ = DeviceBuffer<double>(IntensityTiling::max_blocks(plan_.frame, plan_.max_batch));
    frame_scales_ = DeviceBuffer<double>(batch);
  }
  const MetricsPlan& metrics = plan_.metrics;
  pipeline_.allocate_outputs(stores_frames() ? batch * plan_.frame_elements() : 0,
                             metrics.empty() ? 0 : batch * metrics.values_per_frame);
  if (!metrics.empty()) {
    device_metrics_ = DeviceMetrics(metrics, plan_.frame, facts.aperture_sum);
    if (metrics.column(Metric::rms_wavefront) != nullptr)
      moments_ = DeviceBuffer<double>(3 * batch * PupilTiling::max_blocks_per_frame(plan_.samples));
    if (metrics.column(Metric::ee) != nullptr)
      ee_ = std::make_unique<DeviceEncircledEnergy<Real>>(
          plan_, DeviceEncircledEnergy<Real>::planes_serve(plan_), pipeline_.stream());
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
  pipeline_.set_maps(PupilMapBuffers(facts, plan_.max_batch));

  // One set of transforms serves every call: a shorter batch transforms a few stale frames too.
  fft_ = make_transforms(plan_.max_batch);
  if (policy_.timing == Timing::pieced) piece_fft_ = make_transforms(policy_.piece_frames);
  plan_seconds_ = std::chrono::duration<double>(CallQueue::Clock::now() - start).count();
}

template <typename Real>
typename CufftBackend<Real>::Transforms CufftBackend<Real>::make_transforms(long long batch) const {
  Transforms t;
  t.field = std::make_unique<FieldTransform<Real>>(plan_.samples, plan_.padded, pupil_shape_.offset,
                                                   batch, true, pipeline_.stream());
  if (plan_.metrics.needs_full_plane())
    t.otf = std::make_unique<FftPlan>(FftShape{plan_.padded, batch, 2, FftInput::real},
                                      plan_.precision, pipeline_.stream());
  return t;
}

template <typename Real>
std::size_t CufftBackend<Real>::transforms_scratch_bytes(long long batch) const {
  std::size_t bytes =
      FieldTransform<Real>::scratch_bytes(pupil_shape_.rows, plan_.samples, plan_.padded, batch);
  if (plan_.metrics.needs_full_plane())
    bytes += FftPlan::work_bytes({plan_.padded, batch, 2, FftInput::real}, plan_.precision);
  return bytes;
}

template <typename Real>
CufftBackend<Real>::~CufftBackend() {
  pipeline_.stop();
}

template <typename Real>
void CufftBackend<Real>::require_device_memory() const {
  const std::size_t batch = static_cast<std::size_t>(plan_.max_batch);
  std::size_t needed =
      policy_.buffer_frames() * (pupil_elements() + field_elements()) * sizeof(Complex) +
      (plan_.samples + plan_.padded) * sizeof(double)  // grid table
      + PupilMapBuffers::bytes(plan_.sampled_pupil());
  if (needs_device_frames()) needed += batch * plan_.frame_elements() * sizeof(Real);
  if (plan_.metrics.needs_full_plane())
    needed +=
        policy_.buffer_frames() * (half_plane_elements() * sizeof(Complex) +
                                   (keeps_intensity_only() ? 0 : field_elements() * sizeof(Real)));
  if (plan_.metrics.column(Metric::rms_wavefront) != nullptr)
    needed += 3 * batch * PupilTiling::max_blocks_per_frame(plan_.samples) * sizeof(double);
  if (plan_.metrics.column(Metric::ee) != nullptr)
    needed += DeviceEncircledEnergy<Real>::device_bytes(
        plan_, DeviceEncircledEnergy<Real>::planes_serve(plan_));
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
                 available_host_memory(), "cuda backend: the pinned output buffers", "host memory");
}

// The call's graph, recorded on first use; with the tables in its parameters, this call's
// tables written into its pupil node first.
template <typename Real>
cudaStream_t CufftBackend<Real>::launch(const GraphKey& key) {
  const cudaStream_t stream = pipeline_.stream();
  auto& cached = pipeline_.graph(key, [&] { issue_pipeline(key); });
  if (key.tables == TableSource::parameters)
    pipeline_.update_inline_tables(cached, pupil_.data(), pupil_shape(key.slot));
  const StageClock& clock = clocks_[static_cast<std::size_t>(key.slot)];
  clock.before_launch(stream);
  cached.graph.launch(stream);
  clock.after_launch(stream);
  return stream;
}

template <typename Real>
std::size_t CufftBackend<Real>::table_bus_reads(const BatchTableLayout& layout) const {
  return static_cast<std::size_t>(
             PupilTiling::for_batch(plan_.samples, layout.frames).blocks(layout.frames)) *
         layout.doubles_per_frame() * sizeof(double);
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
  const cudaStream_t stream = pipeline_.stream();
  const cudaStream_t copies = pipeline_.copy_stream();
  mark(key, 0);
  pipeline_.issue_table_copy(key);
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
    pipeline_.issue_frame_copy(key.slot, static_cast<std::size_t>(first) * plan_.frame_elements(),
                               device_frames_.data(), count * plan_.frame_bytes(), copies);
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
  PhaseTables tables = pipeline_.phase_tables(key);
  tables.coefficients += static_cast<std::size_t>(first) * tables.doubles_per_frame();
  tables.frames = count;
  const PupilShape shape = pupil_shape(key.slot, first);
  launch_build_pupil<Real>(pupil, shape, tables, pipeline_.inline_tables(key), pipeline_.stream());
  mark(key, 1);
  if (keeps_intensity_only())
    fft.field->forward_intensity(pupil, intensity_planes() + field_offset);
  else fft.field->forward(pupil, fields_.data() + field_offset);
  mark(key, 2);
  if (!plan_.metrics.empty())
    issue_metrics(key, first, count, fft,
                  PupilTiling::for_batch(plan_.samples, count).blocks_per_frame());
}

// Metrics of frames [first, first + count), from their fields, right after their FFT (a
// piece's fields are overwritten by the next piece's).
template <typename Real>
void CufftBackend<Real>::issue_metrics(const GraphKey& key, int first, int count,
                                       const Transforms& fft, int pupil_blocks_per_frame) {
  const cudaStream_t stream = pipeline_.stream();
  const std::size_t field_offset = static_cast<std::size_t>(first) * field_elements();
  const Complex* fields = fields_.data() + field_offset;
  FieldWindow<Real> window;
  if (keeps_intensity_only()) window.intensity = intensity_planes() + field_offset;
  else window.fields = fields;
  window.frame_stride = static_cast<long long>(field_elements());
  window.row_stride = plan_.padded;
  window.first = pupil::crop_start(plan_.padded, plan_.frame);
  double* out = pipeline_.metrics_view(key.slot) +
                static_cast<std::size_t>(first) * plan_.metrics.values_per_frame;
  launch_frame_metrics<Real>(window, device_metrics_,
                             WavefrontMoments{moments_.data(), pupil_blocks_per_frame}, count, out,
                             stream);
  if (ee_ != nullptr && ee_->reads_planes())
    ee_->from_planes(window.fields, window.intensity, window.frame_stride, count, out, stream);
  else if (ee_ != nullptr)  // M < 2N - 1: the pupils, which the out-of-place FFT left as they were
    ee_->from_pupils(
        {pupil_.data() + static_cast<std::size_t>(first) * pupil_elements(),
         static_cast<long long>(pupil_elements()), 0, plan_.padded, pupil_shape_.rows.origin,
         pupil_shape_.offset, plan_.samples, pupil_shape_.shift_waves + pupil_shape_.offset},
        count, out, stream);
  if (!plan_.metrics.needs_full_plane()) return;
  Real* planes = window.intensity != nullptr ? intensity_planes() + field_offset
                                             : mtf_planes_.data() + field_offset;
  if (window.intensity == nullptr)
    launch_plane_intensity<Real>(planes, fields, plan_.padded, count, stream);
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
      policy_.direct_write ? pipeline_.frames_view(key.slot) + offset : device_frames,
      device_frames, block_sums_.data(), frame_scales_.data(), pipeline_.non_finite_view(key.slot)};
  launch_intensity<Real>(fields_.data() + first * field_elements(), shape, plan_.normalization,
                         peak_scale_, output, pipeline_.stream());
}

}  // namespace

std::unique_ptr<Backend> make_cufft_backend(const PsfPlan& plan) {
  if (plan.precision == Precision::single) return std::make_unique<CufftBackend<float>>(plan);
  return std::make_unique<CufftBackend<double>>(plan);
}

}  // namespace psfsim::cuda

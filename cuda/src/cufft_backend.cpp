#include "cufft_backend.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "cuda_graph.hpp"
#include "device_info.hpp"
#include "device_memory.hpp"
#include "fft_plan.hpp"
#include "intensity_kernel.hpp"
#include "phase_table_packing.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/memory_budget.hpp"
#include "psfsim/pupil_math.hpp"
#include "pupil_kernel.hpp"
#include "stream_and_events.hpp"

namespace psfsim::cuda {
namespace {

// Figures quoted below were measured on the H200 of the GPU machine (CUDA 13.0).

// Left free for what cuFFT, graphs and the context allocate beyond our own estimate.
constexpr std::size_t device_memory_reserve = std::size_t{64} << 20;
// Executable graphs kept per backend: two output slots times a few batch shapes.
constexpr std::size_t max_cached_graphs = 8;
// Up to this much output per call, the intensity kernel writes the frames straight into
// pinned host memory: a separate copy costs about 6 us more at 256 KiB. Larger outputs go
// through the copy engine, which moves them slightly faster (55 against 52 GB/s) and can
// overlap the computation of later pieces of a batch.
constexpr std::size_t direct_write_limit = std::size_t{4} << 20;
// Up to this many complex values per call, the graph is timed as a whole by one pair of
// events around its launch. Event nodes between the stages add about 8 us to a single PSF
// at N = 128, as much as the three stages take together, and 7% at N = 512.
constexpr std::size_t whole_graph_timing_limit = std::size_t{1024} * 1024;
// Staged (--stage-timing, or a batch of fewer than 2 * pipeline_pieces frames), a batch whose
// output goes through the copy engine gets its intensities in up to this many pieces, each
// copied while the next is computed.
constexpr int max_copy_pieces = 8;
// Otherwise such a batch runs its whole pipeline (pupil, FFT, intensity) in this many
// pieces, each piece's copy overlapping the next piece's computation: 198k against 183k
// PSFs/s for 1024 full frames at N = 128 (bench/gpu-check.sh). Pieces add a kernel tail per
// piece and stage, so --stage-timing, which reports the device-only stages, keeps one piece.
constexpr int pipeline_pieces = 4;
// Up to this many bytes read by all pupil blocks together, the kernel reads the phase
// tables from pinned host memory rather than after a copy node (about 8 us).
constexpr std::size_t host_table_read_limit = std::size_t{1} << 20;

// How compute() calls are timed, fixed per backend from the plan's sizes.
enum class Timing {
  whole,       // pupil+fft+intensity+transfer: one event pair around the graph launch
  fused_copy,  // pupil, fft, intensity+transfer (the intensity kernel writes to host)
  staged,      // pupil, fft, intensity, transfer (for a batch: the copies left at the end)
  pieced,      // pupil+fft+intensity+transfer of a batch run in overlapping pieces
};

// Where the pupil kernel finds a call's phase tables.
enum class TableSource {
  parameters,   // in its launch parameters (InlineTables)
  host_memory,  // read over the bus from the pinned staging buffer
  device_copy,  // copied from the staging buffer by the graph's first node
};

template <typename Real>
class CufftBackend final : public Backend {
 public:
  explicit CufftBackend(const PsfPlan& plan);
  ~CufftBackend() override;

  [[nodiscard]] std::string name() const override { return "cuda"; }
  [[nodiscard]] std::string device_name() const override { return device_name_; }
  [[nodiscard]] const PsfPlan& plan() const override { return plan_; }
  [[nodiscard]] std::string fused_stages() const override;
  [[nodiscard]] FrameBlock compute(std::span<const PhasePolynomial> frames) override;

 private:
  using Complex = DeviceComplex<Real>;

  // What a recorded graph depends on beyond the plan.
  struct GraphKey {
    int frames = 0;
    int degree = 0;
    bool with_rho = false;
    TableSource tables = TableSource::device_copy;
    int slot = 0;  // which pinned output buffer the frames land in
    bool operator==(const GraphKey&) const = default;
  };
  struct CachedGraph {
    GraphKey key;
    RecordedGraph graph;
    cudaGraphNode_t pupil_node = nullptr;  // holds the tables with TableSource::parameters
    InlineTables tables_in_node{};         // what that node holds now
  };

  [[nodiscard]] bool needs_device_frames() const noexcept {
    return !direct_write_ || plan_.normalization == Normalization::sum;
  }
  [[nodiscard]] std::size_t field_elements() const noexcept {
    return static_cast<std::size_t>(plan_.padded) * plan_.padded;
  }
  // Frames the pupil and spectrum buffers hold: whole pieces, so that a piece's FFT (of
  // piece_frames_ frames) never runs past them.
  [[nodiscard]] std::size_t buffer_frames() const noexcept {
    return timing_ == Timing::pieced
               ? static_cast<std::size_t>(pipeline_pieces) * piece_frames_
               : static_cast<std::size_t>(plan_.max_batch);
  }
  [[nodiscard]] PhaseTables phase_tables(const GraphKey& key) const noexcept;
  void require_device_memory() const;
  GraphKey stage_phase_tables(std::span<const PhasePolynomial> frames, int slot);
  CachedGraph& graph_for(const GraphKey& key);
  void update_inline_tables(CachedGraph& cached, const GraphKey& key);
  void issue_pipeline(const GraphKey& key);
  void issue_pieced_pipeline(const GraphKey& key);
  void issue_intensity(const GraphKey& key, int first, int count);
  void mark(int stage) const;
  [[nodiscard]] StageTimes stage_times() const;

  PsfPlan plan_;
  std::string device_name_;  // initialized by opening the device, before any CUDA object
  double peak_scale_ = 1.0;
  Timing timing_ = Timing::staged;
  bool direct_write_ = false;  // the intensity kernel writes into pinned host memory
  int piece_frames_ = 0;       // frames per piece with Timing::pieced
  PupilShape pupil_shape_;

  // Members are released in reverse order: graphs before the plan and buffers they use,
  // the streams last.
  Stream stream_;
  Stream copy_stream_;  // device-to-host copies, overlapping the intensity of later pieces
  Event piece_ready_{cudaEventDisableTiming};
  Event copies_done_{cudaEventDisableTiming};
  // Stage boundaries: start, after pupil, after fft, after intensity, after transfer.
  std::array<Event, 5> marks_;
  DeviceBuffer<double> grid_table_;
  DeviceBuffer<Complex> pupil_;     // zero padding written once, window every call
  DeviceBuffer<Complex> spectrum_;  // out-of-place FFT result
  DeviceBuffer<Real> device_frames_;
  DeviceBuffer<double> block_sums_;
  DeviceBuffer<double> frame_scales_;
  std::array<PinnedBuffer<Real>, 2> host_frames_;  // alternate, so a block outlives one call
  std::array<Real*, 2> host_frames_view_{};
  InlineTables inline_tables_{};
  PinnedBuffer<double> staged_tables_;
  double* staged_tables_view_ = nullptr;
  DeviceBuffer<double> tables_;
  std::unique_ptr<FftPlan> fft_;
  std::unique_ptr<FftPlan> piece_fft_;  // Timing::pieced: piece_frames_ transforms
  std::vector<CachedGraph> graphs_;
  int next_slot_ = 0;
};

template <typename Real>
CufftBackend<Real>::CufftBackend(const PsfPlan& plan)
    : plan_(plan), device_name_(open_device(plan)) {
  const PupilFacts& facts = plan_.pupil_facts();
  peak_scale_ = facts.peak_scale;

  const std::size_t batch = static_cast<std::size_t>(plan_.max_batch);
  direct_write_ = !plan_.stage_timing && batch * plan_.frame_bytes() <= direct_write_limit;
  if (plan_.stage_timing)
    timing_ = Timing::staged;
  else if (batch * field_elements() <= whole_graph_timing_limit)
    timing_ = Timing::whole;
  else if (direct_write_)
    timing_ = Timing::fused_copy;
  else if (plan_.max_batch >= 2 * pipeline_pieces)
    timing_ = Timing::pieced;
  else
    timing_ = Timing::staged;
  if (timing_ == Timing::pieced)
    piece_frames_ = (plan_.max_batch + pipeline_pieces - 1) / pipeline_pieces;
  pupil_shape_ = {plan_.samples, plan_.padded, facts.offset, plan_.obscuration, nullptr, nullptr};

  require_device_memory();
  pupil_ = DeviceBuffer<Complex>(buffer_frames() * field_elements());
  spectrum_ = DeviceBuffer<Complex>(buffer_frames() * field_elements());
  PSFSIM_CUDA_CHECK(cudaMemset(pupil_.data(), 0, pupil_.bytes()));
  if (needs_device_frames()) device_frames_ = DeviceBuffer<Real>(batch * plan_.frame_elements());
  if (plan_.normalization == Normalization::sum) {
    block_sums_ = DeviceBuffer<double>(IntensityTiling::max_blocks(plan_.frame, plan_.max_batch));
    frame_scales_ = DeviceBuffer<double>(batch);
  }
  for (int slot = 0; slot < 2; ++slot) {
    host_frames_[slot] = PinnedBuffer<Real>(batch * plan_.frame_elements());
    host_frames_view_[slot] = device_view(host_frames_[slot]);
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

  // One cuFFT plan serves every call: a shorter batch transforms a few stale frames too.
  fft_ = std::make_unique<FftPlan>(plan_.padded, plan_.max_batch, plan_.precision, stream_.get());
  if (timing_ == Timing::pieced)
    piece_fft_ =
        std::make_unique<FftPlan>(plan_.padded, piece_frames_, plan_.precision, stream_.get());
}

template <typename Real>
CufftBackend<Real>::~CufftBackend() {
  // Nothing may still run on buffers about to be freed; errors here are past caring about.
  if (cudaSetDevice(plan_.device) == cudaSuccess) cudaStreamSynchronize(stream_.get());
  cudaGetLastError();
}

template <typename Real>
std::string CufftBackend<Real>::fused_stages() const {
  switch (timing_) {
    case Timing::whole:
      return "pupil+fft+intensity+transfer: a call of at most 1024x1024 complex values runs as "
             "one CUDA graph timed by one pair of events around its launch; events between the "
             "stages would cost about as much as the stages themselves";
    case Timing::pieced:
      return "pupil+fft+intensity+transfer: a batch with a large output runs its whole pipeline "
             "in " + std::to_string(pipeline_pieces) + " pieces, each piece's device-to-host "
             "copy overlapping the next piece's computation, timed by one pair of events "
             "around the graph launch (--stage-timing times each stage instead)";
    case Timing::fused_copy:
      return "intensity+transfer: outputs of at most 4 MiB per call are written by the "
             "intensity kernel straight into pinned host memory, without a separate copy";
    case Timing::staged:
      if (plan_.max_batch > 1)
        return "transfer: the batch's intensities are computed in pieces whose device-to-host "
               "copies overlap the intensity kernels of later pieces; transfer is the part of "
               "the copies left after the last intensity kernel";
      break;
  }
  return {};
}

template <typename Real>
void CufftBackend<Real>::require_device_memory() const {
  const std::size_t batch = static_cast<std::size_t>(plan_.max_batch);
  std::size_t needed = 2 * buffer_frames() * field_elements() * sizeof(Complex)  // pupil, spectrum
                       + (plan_.samples + plan_.padded) * sizeof(double);  // grid table
  if (needs_device_frames()) needed += batch * plan_.frame_elements() * sizeof(Real);
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
  needed += FftPlan::work_bytes(plan_.padded, plan_.max_batch, plan_.precision);
  if (timing_ == Timing::pieced)
    needed += FftPlan::work_bytes(plan_.padded, piece_frames_, plan_.precision);
  if (needed + device_memory_reserve > free_bytes) refuse(needed + device_memory_reserve);

  // The two pinned output buffers cannot be paged out.
  require_memory(2 * batch * plan_.frame_bytes(), available_host_memory(),
                 "cuda backend: the pinned output buffers", "host memory");
}

template <typename Real>
FrameBlock CufftBackend<Real>::compute(std::span<const PhasePolynomial> frames) {
  const auto start = std::chrono::steady_clock::now();
  const int count = static_cast<int>(frames.size());
  if (count < 1 || count > plan_.max_batch)
    throw InputError("cuda backend: " + std::to_string(count) +
                     " frames given, the plan holds 1 to " + std::to_string(plan_.max_batch));
  select_device(plan_.device);

  const int slot = next_slot_;
  const GraphKey key = stage_phase_tables(frames, slot);
  CachedGraph& cached = graph_for(key);
  if (key.tables == TableSource::parameters) update_inline_tables(cached, key);
  const cudaStream_t stream = stream_.get();
  const bool timed_whole = timing_ == Timing::whole || timing_ == Timing::pieced;
  if (timed_whole) PSFSIM_CUDA_CHECK(cudaEventRecord(marks_[0].get(), stream));
  cached.graph.launch(stream);
  if (timed_whole) PSFSIM_CUDA_CHECK(cudaEventRecord(marks_[4].get(), stream));
  PSFSIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  next_slot_ ^= 1;

  FrameBlock block;
  block.data = host_frames_[slot].data();
  block.frames = frames.size();
  block.times = stage_times();
  block.times.total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return block;
}

template <typename Real>
StageTimes CufftBackend<Real>::stage_times() const {
  StageTimes t;
  switch (timing_) {
    case Timing::whole:
    case Timing::pieced:
      t.add("pupil+fft+intensity+transfer", elapsed_seconds(marks_[0], marks_[4]));
      break;
    case Timing::fused_copy:
      t.add("pupil", elapsed_seconds(marks_[0], marks_[1]));
      t.add("fft", elapsed_seconds(marks_[1], marks_[2]));
      t.add("intensity+transfer", elapsed_seconds(marks_[2], marks_[3]));
      break;
    case Timing::staged:
      t.add("pupil", elapsed_seconds(marks_[0], marks_[1]));
      t.add("fft", elapsed_seconds(marks_[1], marks_[2]));
      t.add("intensity", elapsed_seconds(marks_[2], marks_[3]));
      t.add("transfer", elapsed_seconds(marks_[3], marks_[4]));
      break;
  }
  return t;
}

template <typename Real>
PhaseTables CufftBackend<Real>::phase_tables(const GraphKey& key) const noexcept {
  const double* where = key.tables == TableSource::host_memory   ? staged_tables_view_
                        : key.tables == TableSource::device_copy ? tables_.data()
                                                                 : nullptr;
  return {where, key.degree, key.with_rho, key.frames};
}

// Lays the batch's tables out for the pupil kernel: in its launch parameters when they fit,
// else in pinned staging memory.
template <typename Real>
typename CufftBackend<Real>::GraphKey CufftBackend<Real>::stage_phase_tables(
    std::span<const PhasePolynomial> frames, int slot) {
  const BatchTableLayout layout = batch_table_layout(frames);
  if (layout.degree > max_phase_degree)
    throw InputError("cuda backend: phase polynomial of degree " + std::to_string(layout.degree) +
                     " (at most " + std::to_string(max_phase_degree) + ")");
  GraphKey key{layout.frames, layout.degree, layout.with_rho, TableSource::parameters, slot};
  if (layout.doubles() <= InlineTables::capacity) {
    pack_phase_tables(frames, layout, inline_tables_.values);
    return key;
  }
  if (layout.doubles() > staged_tables_.size()) {
    // Sized for a full batch of this layout so that later calls do not grow it again.
    const std::size_t capacity = plan_.max_batch * layout.doubles_per_frame();
    graphs_.clear();  // they read the buffers replaced here
    staged_tables_ = PinnedBuffer<double>(capacity);
    staged_tables_view_ = device_view(staged_tables_);
    tables_ = DeviceBuffer<double>(capacity);
  }
  pack_phase_tables(frames, layout, staged_tables_.data());
  const std::size_t bus_reads =
      static_cast<std::size_t>(
          PupilTiling::for_batch(plan_.samples, layout.frames).blocks(layout.frames)) *
      layout.doubles_per_frame() * sizeof(double);
  key.tables =
      bus_reads <= host_table_read_limit ? TableSource::host_memory : TableSource::device_copy;
  return key;
}

// One graph per batch shape, table source and output slot, recorded on first use. At
// N = 128 a graph launch brings the host result about 8 us sooner than the same calls
// launched one by one.
template <typename Real>
typename CufftBackend<Real>::CachedGraph& CufftBackend<Real>::graph_for(const GraphKey& key) {
  for (CachedGraph& g : graphs_)
    if (g.key == key) return g;
  if (graphs_.size() >= max_cached_graphs) graphs_.erase(graphs_.begin());
  StreamCapture capture(stream_.get());
  issue_pipeline(key);
  CachedGraph recorded{key, capture.finish(), nullptr, inline_tables_};
  if (key.tables == TableSource::parameters) {
    recorded.pupil_node = find_inline_pupil_node<Real>(recorded.graph.graph(), phase_tables(key));
    if (recorded.pupil_node == nullptr)
      throw RuntimeFailure("cuda backend: the recorded graph holds no pupil kernel node");
  }
  graphs_.push_back(std::move(recorded));
  return graphs_.back();
}

// Rewrites the tables in the graph's pupil node, unless it holds these very values already
// (the same frames computed again).
template <typename Real>
void CufftBackend<Real>::update_inline_tables(CachedGraph& cached, const GraphKey& key) {
  const PhaseTables tables = phase_tables(key);
  const std::size_t bytes =
      static_cast<std::size_t>(key.frames) * tables.doubles_per_frame() * sizeof(double);
  if (std::memcmp(cached.tables_in_node.values, inline_tables_.values, bytes) == 0) return;
  set_inline_tables<Real>(cached.graph.exec(), cached.pupil_node, pupil_.data(), pupil_shape_,
                          tables, inline_tables_);
  cached.tables_in_node = inline_tables_;
}

// Stage times come from events recorded inside the graph (external event nodes), so each
// call's figures are those of that very replay, not of a separate timing pass.
template <typename Real>
void CufftBackend<Real>::mark(int stage) const {
  const bool wanted = timing_ == Timing::staged || (timing_ == Timing::fused_copy && stage <= 3);
  if (!wanted) return;  // Timing::whole is timed by events around the launch instead
  PSFSIM_CUDA_CHECK(
      cudaEventRecordWithFlags(marks_[stage].get(), stream_.get(), cudaEventRecordExternal));
}

template <typename Real>
void CufftBackend<Real>::issue_pipeline(const GraphKey& key) {
  // Tables in the launch parameters cannot be split by piece; only small batches have them.
  if (timing_ == Timing::pieced && key.tables != TableSource::parameters) {
    issue_pieced_pipeline(key);
    return;
  }
  const cudaStream_t stream = stream_.get();
  const cudaStream_t copies = copy_stream_.get();
  const PhaseTables tables = phase_tables(key);
  mark(0);
  if (key.tables == TableSource::device_copy)
    PSFSIM_CUDA_CHECK(cudaMemcpyAsync(
        tables_.data(), staged_tables_.data(),
        static_cast<std::size_t>(key.frames) * tables.doubles_per_frame() * sizeof(double),
        cudaMemcpyHostToDevice, stream));
  launch_build_pupil<Real>(pupil_.data(), pupil_shape_, tables,
                           key.tables == TableSource::parameters ? &inline_tables_ : nullptr,
                           stream);
  mark(1);
  fft_->forward(pupil_.data(), spectrum_.data());  // max_batch transforms, stale ones too
  mark(2);
  if (direct_write_) {
    issue_intensity(key, 0, key.frames);
    mark(3);
    return;
  }
  // Pieces of whole frames: the copy engine takes each piece while the next is computed.
  PSFSIM_CUDA_CHECK(cudaEventRecord(piece_ready_.get(), stream));  // fork the copy stream
  PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(copies, piece_ready_.get(), 0));
  const int pieces = std::min(key.frames, max_copy_pieces);
  for (int p = 0; p < pieces; ++p) {
    const int first = static_cast<int>(static_cast<long long>(key.frames) * p / pieces);
    const int end = static_cast<int>(static_cast<long long>(key.frames) * (p + 1) / pieces);
    issue_intensity(key, first, end - first);
    PSFSIM_CUDA_CHECK(cudaEventRecord(piece_ready_.get(), stream));
    PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(copies, piece_ready_.get(), 0));
    const std::size_t offset = first * plan_.frame_elements();
    PSFSIM_CUDA_CHECK(
        cudaMemcpyAsync(host_frames_[key.slot].data() + offset, device_frames_.data() + offset,
                        (end - first) * plan_.frame_bytes(), cudaMemcpyDeviceToHost, copies));
  }
  mark(3);  // all intensities are computed; copies may still be running
  PSFSIM_CUDA_CHECK(cudaEventRecord(copies_done_.get(), copies));  // join
  PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(stream, copies_done_.get(), 0));
  mark(4);
}

// The whole pipeline piece by piece: piece p's copy (copy stream) runs while piece p+1's
// pupil, FFT and intensity run (compute stream). Pieces start at multiples of piece_frames_,
// and each piece's FFT transforms piece_frames_ frames, past the batch's end for the last
// piece (the buffers hold whole pieces; those results are never read).
template <typename Real>
void CufftBackend<Real>::issue_pieced_pipeline(const GraphKey& key) {
  const cudaStream_t stream = stream_.get();
  const cudaStream_t copies = copy_stream_.get();
  const PhaseTables tables = phase_tables(key);
  if (key.tables == TableSource::device_copy)
    PSFSIM_CUDA_CHECK(cudaMemcpyAsync(
        tables_.data(), staged_tables_.data(),
        static_cast<std::size_t>(key.frames) * tables.doubles_per_frame() * sizeof(double),
        cudaMemcpyHostToDevice, stream));
  PSFSIM_CUDA_CHECK(cudaEventRecord(piece_ready_.get(), stream));  // fork the copy stream
  PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(copies, piece_ready_.get(), 0));
  for (int first = 0; first < key.frames; first += piece_frames_) {
    const int count = std::min(piece_frames_, key.frames - first);
    const std::size_t field_offset = static_cast<std::size_t>(first) * field_elements();
    PhaseTables piece = tables;
    piece.coefficients += static_cast<std::size_t>(first) * tables.doubles_per_frame();
    piece.frames = count;
    launch_build_pupil<Real>(pupil_.data() + field_offset, pupil_shape_, piece, nullptr, stream);
    piece_fft_->forward(pupil_.data() + field_offset, spectrum_.data() + field_offset);
    issue_intensity(key, first, count);
    PSFSIM_CUDA_CHECK(cudaEventRecord(piece_ready_.get(), stream));
    PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(copies, piece_ready_.get(), 0));
    const std::size_t offset = static_cast<std::size_t>(first) * plan_.frame_elements();
    PSFSIM_CUDA_CHECK(cudaMemcpyAsync(host_frames_[key.slot].data() + offset,
                                      device_frames_.data() + offset,
                                      count * plan_.frame_bytes(), cudaMemcpyDeviceToHost,
                                      copies));
  }
  PSFSIM_CUDA_CHECK(cudaEventRecord(copies_done_.get(), copies));  // join
  PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(stream, copies_done_.get(), 0));
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
      direct_write_ ? host_frames_view_[key.slot] + offset : device_frames, device_frames,
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

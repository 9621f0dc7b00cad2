#include "psfsim/psf_run.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <future>
#include <mutex>

#include "psfsim/errors.hpp"
#include "psfsim/file_chunks.hpp"
#include "psfsim/finite_check.hpp"
#include "psfsim/frame_copy.hpp"
#include "psfsim/contiguous_parallel.hpp"
#include "detector_stage.hpp"
#include "metrics_plan.hpp"

namespace psfsim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int frames_per_call(const RunSpec& spec, const Geometry& g, ComputeSite site) {
  const std::size_t batch = batch_size(spec);
  if (spec.chunk_frames > 0)
    return static_cast<int>(std::min<std::size_t>(batch, spec.chunk_frames));
  const std::size_t real = bytes_per_real(spec.precision);
  // What one frame costs the backend: S*K sub-pixels for each wavelength.
  const std::size_t computed = static_cast<std::size_t>(g.computed_frame());
  const std::size_t frame_bytes = computed * computed * real * g.spectrum.size();
  // A device keeping metrics alone, or keeping its frames (frames_on_device), sends no frame
  // over the bus: calls 64 times larger (4096 frames of 256 x 256 instead of 64) keep it busy
  // between the host's steps (bench/results/code-constants.md). The host gains nothing from
  // them and would hold the larger frames in memory.
  const bool larger =
      (!spec.metrics.stores_frames() || spec.frames_on_device) && site == ComputeSite::device;
  const std::size_t call_bytes = larger ? std::max<std::size_t>(1, frame_bytes / 64) : frame_bytes;
  const std::size_t call = default_chunk_frames(batch, call_bytes);
  // Whole file chunks per call, so that the sink's writes cover whole chunks.
  const std::size_t per_chunk = psf_chunk_shape(g.frame, real, batch).frames;
  return static_cast<int>(call >= per_chunk ? call / per_chunk * per_chunk : call);
}

// What --backend auto weighs: every wavelength of every frame, each repeat.
RunWork run_work(const RunSpec& spec, const Geometry& g) {
  RunWork w;
  w.frame = {g.samples, g.fft_applies ? g.padded : 0, g.computed_frame()};
  w.propagation = spec.optics.propagation;
  const double frames = static_cast<double>(batch_size(spec)) * spec.repeat;
  w.propagations = frames * static_cast<double>(g.spectrum.size());
  w.stored_frames = spec.metrics.stores_frames() && !spec.frames_on_device ? frames : 0.0;
  w.frame_bytes = static_cast<double>(g.computed_frame()) * g.computed_frame() *
                  static_cast<double>(bytes_per_real(spec.precision));
  return w;
}

}  // namespace

Aberration PsfRun::in_waves(Aberration terms) const {
  if (spec_.field.varies()) terms = with_field_terms(spec_.field, terms);
  const double factor = geometry_.waves_per_unit;
  if (factor == 1.0) return terms;
  for (auto& t : terms.seidel) t.waves *= factor;
  for (auto& t : terms.zernike) t.waves *= factor;
  return terms;
}

int default_chunk_frames(std::size_t batch, std::size_t frame_bytes) {
  // Each call's output is pinned three times over on a GPU (its call slots), which the
  // process pays at its start and end (bench/results/2026-11-30-writer-vs-dd.md); a run
  // storing frames is bound by its writes long before 16 MiB calls would hold a device back.
  constexpr std::size_t target_bytes = std::size_t{16} << 20;
  constexpr std::size_t max_frames = 4096;
  const std::size_t by_memory = std::max<std::size_t>(1, target_bytes / frame_bytes);
  return static_cast<int>(std::max<std::size_t>(1, std::min({batch, by_memory, max_frames})));
}

PsfRun::PsfRun(RunSpec spec, const BackendRegistry& backends) : spec_(std::move(spec)) {
  validate(spec_);
  geometry_ = psfsim::geometry(spec_);
  const BackendChoice choice = backends.choose(spec_.backend, run_work(spec_, geometry_));
  const BackendEntry& entry = *choice.entry;
  backend_name_ = entry.name;
  backend_choice_ = choice.reason;
  backend_site_ = entry.site;
  max_batch_ = frames_per_call(spec_, geometry_, entry.site);
  // The MTF needs the FFT's whole focal plane (validate() has refused an explicit mft). The
  // calls' size matters as well as their frames': a call has fixed costs of its own.
  if (spec_.optics.propagation == Propagation::automatic && geometry_.fft_applies)
    geometry_.propagation = spec_.metrics.has(Metric::mtf)
                                ? Propagation::fft
                                : faster_propagation(entry, {geometry_.samples, geometry_.padded,
                                                             geometry_.frame, max_batch_});
  PsfPlan plan = make_plan(spec_, geometry_, max_batch_);
  host_metrics_ = make_host_metrics_plan(spec_, geometry_, plan);
  for (auto& rows : host_rows_)
    rows.resize(host_metrics_.empty() ? 0 : max_batch_ * host_metrics_.values_per_frame);
  // The detector acts on stored frames; metrics describe the optical PSF before it.
  if (geometry_.detector_stage(spec_.optics) && spec_.metrics.stores_frames())
    detector_ = std::make_unique<DetectorStage>(spec_, geometry_, plan.sampled_pupil().energy_sum,
                                                static_cast<std::size_t>(max_batch_));
  pending_backend_ = std::async(std::launch::async, [entry, plan = std::move(plan)] {
    BackendRegistry::require_usable(entry);
    return entry.create(plan);
  });
  // The common degree of every frame's tables: a million frames' terms, looked at in parallel.
  const std::span<const Aberration> shapes = terms_.shapes();
  std::mutex degree_mutex;
  for_contiguous_runs(shapes.size(), [&](std::size_t lo, std::size_t hi) {
    int degree = 0;
    for (std::size_t f = lo; f < hi; ++f) degree = std::max(degree, required_degree(shapes[f]));
    const std::lock_guard lock(degree_mutex);
    degree_ = std::max(degree_, degree);
  });
  if (spec_.field.varies()) degree_ = std::max(degree_, required_degree(field_shape(spec_.field)));
  if (const RandomAberrationDraws* drawn = terms_.drawn())
    drawn_template_ = phase_template(drawn->fixed(), drawn->ids());
}

std::optional<PhaseTemplate> PsfRun::phase_template(const Aberration& fixed,
                                                    std::span<const TermId> ids) const {
  if (spec_.field.varies()) return std::nullopt;  // in_waves adds each frame's field terms
  return PhaseTemplate::make(fixed, ids, degree_, geometry_.waves_per_unit);
}

void PsfRun::compile_in_parallel(std::size_t count, FrameCost cost,
                                 const std::function<void(std::size_t, std::size_t)>& work) const {
  if (const int threads = compile_threads(count, cost); threads > 1)
    for_contiguous_runs(count, work, static_cast<std::size_t>(threads));
  else work(0, count);
}

PsfRun::~PsfRun() {
  // A backend still starting is waited for; its failure no longer matters to anyone.
  if (pending_backend_.valid()) pending_backend_.wait();
}

Backend& PsfRun::backend() {
  if (!backend_) backend_ = pending_backend_.get();
  return *backend_;
}

void PsfRun::compile(CompiledChunk& chunk, std::size_t first, std::size_t count) {
  chunk.valid = false;
  chunk.phases.resize(count);
  terms_.prepare(first, count);
  if (drawn_template_) {
    const RandomAberrationDraws& drawn = *terms_.drawn();
    compile_in_parallel(count, FrameCost::drawn_template, [&](std::size_t lo, std::size_t hi) {
      std::vector<double> values(drawn.ids().size());
      for (std::size_t i = lo; i < hi; ++i) {
        drawn.values(first + i, values.data());
        drawn_template_->compile(values.data(), 1, chunk.phases[i]);
        chunk.phases[i].batch_index = static_cast<long long>(spec_.block_first + first + i);
      }
    });
  } else {
    compile_in_parallel(count, FrameCost::terms, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) {
        chunk.phases[i] = compile_phase(in_waves(terms_.frame(first + i)), degree_);
        chunk.phases[i].batch_index = static_cast<long long>(spec_.block_first + first + i);
      }
    });
  }
  chunk.first = first;
  chunk.valid = true;
}

std::span<const AberrationPolynomial> PsfRun::phases(std::size_t first, std::size_t count) {
  if (compiling_.valid()) compiling_.get();
  for (int slot = 0; slot < 2; ++slot)
    if (compiled_[slot].holds(first, count)) {
      current_ = slot;
      return compiled_[slot].phases;
    }
  current_ ^= 1;
  compile(compiled_[current_], first, count);
  return compiled_[current_].phases;
}

void PsfRun::compile_ahead(std::size_t first, std::size_t count) {
  if (compiling_.valid()) compiling_.get();
  if (compiled_[0].holds(first, count) || compiled_[1].holds(first, count)) return;
  CompiledChunk& other = compiled_[current_ ^ 1];
  compiling_ = std::async(std::launch::async,
                          [this, &other, first, count] { compile(other, first, count); });
}

void PsfRun::require_finite(std::size_t first, const FrameBlock& block) {
  if (block.finite) return;
  const auto bad = first_non_finite_frame(
      block.data, block.frames, static_cast<std::size_t>(geometry_.frame) * geometry_.frame,
      spec_.precision);
  if (bad)
    throw RuntimeFailure("frame " + std::to_string(spec_.block_first + first + *bad) +
                         " holds a non-finite value (" + backend_name_ + " backend, " +
                         std::string(to_string(spec_.precision)) +
                         " precision): nothing was written");
}

std::shared_ptr<void> PsfRun::new_frame_memory(Backend& backend, std::size_t bytes, bool* pinned) {
  if (!spec_.frames_on_device) {
    if (pinned != nullptr && !detector_) {
      std::shared_ptr<void> memory = pinned_frames_.take(bytes);
      *pinned = memory != nullptr;
      if (memory) return memory;
    }
    return host_frames_.take(bytes);
  }
  int device = -1;
  return backend.frame_memory(bytes, device);
}

void PsfRun::keep_block(Backend& backend, const FrameBlock& block, std::size_t frame_bytes,
                        std::shared_ptr<const void>& kept) {
  if (block.data == nullptr) return;
  if (!spec_.frames_on_device) require_finite(0, block);
  kept = backend.lend_block();
  if (kept != nullptr) return;
  const std::size_t bytes = block.frames * frame_bytes;
  std::shared_ptr<void> memory = new_frame_memory(backend, bytes);
  if (spec_.frames_on_device) backend.memory_copy()(memory.get(), block.data, bytes, spec_.device);
  else std::memcpy(memory.get(), block.data, bytes);
  kept = std::move(memory);
}

void PsfRun::complete_metrics(const FrameBlock& block, double* rows) const {
  const std::size_t width = host_metrics_.values_per_frame;
  const std::size_t backend_width = host_metrics_.offset;
  const std::size_t pixels = static_cast<std::size_t>(host_metrics_.frame) * host_metrics_.frame;
  if (block.data == nullptr) throw RuntimeFailure(backend_name_ + " backend returned no frames");
  if (backend_width > 0 && block.metrics == nullptr)
    throw RuntimeFailure(backend_name_ + " backend returned no metrics");
  for (std::size_t f = 0; f < block.frames; ++f) {
    double* row = rows + f * width;
    if (backend_width > 0) std::copy_n(block.metrics + f * backend_width, backend_width, row);
    if (spec_.precision == Precision::single)
      host_metrics(host_metrics_, static_cast<const float*>(block.data) + f * pixels, row);
    else host_metrics(host_metrics_, static_cast<const double*>(block.data) + f * pixels, row);
  }
}

void PsfRun::prepare_detector(Backend& backend) {
  if (detector_ready_ || !detector_ || !detector_->needs_peak_reference()) return;
  AberrationPolynomial flat = compile_phase(Aberration{}, degree_);
  flat.batch_index = -1;  // aberration-free: no OPD map either
  detector_->set_peak_reference(backend.compute(std::span(&flat, 1)).data);
  detector_ready_ = true;
}

void PsfRun::warm_up(int calls) {
  const std::size_t count =
      std::min<std::size_t>(terms_.size(), static_cast<std::size_t>(max_batch_));
  for (int c = 0; c < calls; ++c) {
    const auto frames = phases(0, count);
    (void)backend().compute(frames);
  }
}

TimingLog PsfRun::execute(FrameSink& sink, const Progress& progress) {
  const std::size_t batch = terms_.size();
  const std::size_t chunk = static_cast<std::size_t>(max_batch_);
  TimingLog log;
  log.backend = backend_name_;
  log.precision = std::string(to_string(spec_.precision));

  // While the backend starts: the sink opens, and the first chunk's phases are compiled.
  sink.open(RunHeader{spec_, geometry_, log.backend, backend_choice_});
  (void)phases(0, std::min(chunk, batch));
  if (chunk < batch) compile_ahead(chunk, std::min(chunk, batch - chunk));
  Backend& backend = this->backend();
  log.device = backend.device_name();
  log.threads = backend.threads();
  log.plan = backend.plan_seconds();
  log.fused = backend.fused_stages();
  prepare_detector(backend);

  // Call c + 1 is submitted before call c's block is taken, so that a device never waits
  // for the host between calls. Block c is written while call c + 1 is computed; its write
  // is awaited before call c + 3 is submitted (Backend: a block outlives two more calls).
  std::future<void> pending_write;
  int previous_slot = -1;
  double write_seconds = 0.0;
  const std::size_t chunks = (batch + chunk - 1) / chunk;
  const std::size_t calls = chunks * static_cast<std::size_t>(spec_.repeat);
  const auto first_of = [&](std::size_t c) { return (c % chunks) * chunk; };
  const auto count_of = [&](std::size_t c) { return std::min(chunk, batch - first_of(c)); };
  const std::size_t total = batch * static_cast<std::size_t>(spec_.repeat);
  const bool store_frames = spec_.metrics.stores_frames();
  std::size_t done = 0;
  // The chunk after next compiles into call c's buffer: before call c's finish where the
  // backend copied its phases at submit (on a GPU at a million PSFs/s, compiling only after
  // the call's finish left the device waiting on the host), else once finish() has read them.
  const bool compile_early = backend.copies_frames_at_submit();
  backend.submit(phases(0, count_of(0)));
  for (std::size_t c = 0; c < calls; ++c) {
    const std::size_t first = first_of(c);
    const std::size_t count = count_of(c);
    if (c + 1 < calls) backend.submit(phases(first_of(c + 1), count_of(c + 1)));
    // Call c + 2 is compiled and laid out now, while calls c and c + 1 keep the device busy,
    // so that once call c's frames have reached the host its submit only launches. Where a
    // call computes about as long as its frames take to copy out, the device would otherwise
    // wait for the host's layout of every call.
    if (compile_early && c + 2 < calls)
      backend.prepare_next(phases(first_of(c + 2), count_of(c + 2)));
    const FrameBlock block = backend.finish();
    if (!compile_early && c + 2 < calls) compile_ahead(first_of(c + 2), count_of(c + 2));
    if (block.frames != count)
      throw RuntimeFailure(log.backend + " backend returned " + std::to_string(block.frames) +
                           " frames for " + std::to_string(count));
    if (block.metrics == nullptr && !backend.plan().metrics.empty())
      throw RuntimeFailure(log.backend + " backend returned no metrics");
    log.record(block.times, first == 0);
    if (c + chunks >= calls) {  // the last repeat is the one stored
      FrameBlock stored = block;
      if (!store_frames) stored.data = nullptr;
      if (detector_) {
        // The writer still reads the other buffer (the previous chunk).
        const int slot = static_cast<int>((first / chunk) % 2);
        if (pending_write.valid() && slot == previous_slot) pending_write.get();
        stored.data = detector_->process(block.data, count, first, slot);
        stored.finite = false;  // the detector's frames are its own
        previous_slot = slot;
      }
      if (!host_metrics_.empty()) {
        // The writer may still read the previous chunk's rows, in the other slot.
        const int slot = static_cast<int>((first / chunk) % 2);
        if (pending_write.valid()) pending_write.get();
        complete_metrics(block, host_rows_[slot].data());
        stored.metrics = host_rows_[slot].data();
      }
      // Here, while the writer thread copies the last block.
      if (stored.data != nullptr) require_finite(first, stored);
      if (pending_write.valid()) pending_write.get();
      pending_write = std::async(std::launch::async, [&sink, &write_seconds, first, stored] {
        const auto t0 = Clock::now();
        if (stored.data != nullptr) sink.write_frames(first, stored.frames, stored.data);
        if (stored.metrics != nullptr) sink.write_metrics(first, stored.frames, stored.metrics);
        write_seconds += seconds_since(t0);
      });
    }
    done += count;
    if (progress) progress(done, total);
  }
  if (pending_write.valid()) pending_write.get();
  log.write = write_seconds;
  sink.close(log);
  return log;
}

void PsfRun::compile_terms(std::span<const Aberration> terms, std::size_t first, int degree,
                           std::vector<AberrationPolynomial>& phases) const {
  compile_in_parallel(phases.size(), FrameCost::terms, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      phases[i] = compile_phase(in_waves(terms[first + i]), degree);
      phases[i].batch_index = static_cast<long long>(first + i);
    }
  });
}

int PsfRun::compile_threads(std::size_t count, FrameCost cost) const noexcept {
  // A device leaves the host's cores free, and at a million PSFs/s one core cannot compile
  // the phases fast enough; a host backend's own threads have those cores. More than
  // max_compile_threads only contend (the 32-core GPU host: docs/scaling.md).
  // --threads (an MPI rank's share of its host) caps the threads here too. Handing a pass to
  // the process's workers costs a few µs (psfsim_phase_compile_bench), so a pass goes to them
  // once its frames hold about ten µs of one core's work: a frame's terms cost 0.1-0.7 µs,
  // a drawn template's frame a few tens of ns, a template's from given values 20-30 ns.
  constexpr int max_compile_threads = 8;
  constexpr std::size_t frames_worth_threads[] = {32, 256, 512};  // by FrameCost
  if (backend_site_ != ComputeSite::device || count < frames_worth_threads[static_cast<int>(cost)])
    return 1;
  return spec_.threads > 0 ? std::min(spec_.threads, max_compile_threads) : max_compile_threads;
}

void PsfRun::compute(std::span<const Aberration> terms, const FrameDestination& frames,
                     double* metrics, std::size_t noise_first, const Progress& after_call) {
  int degree = degree_;
  for (const Aberration& t : terms) degree = std::max(degree, required_degree(t));
  const auto compile = [&](std::size_t first, std::vector<AberrationPolynomial>& phases) {
    compile_terms(terms, first, degree, phases);
  };
  compute_compiled(terms.size(), compile, frames, metrics, noise_first, after_call);
}

void PsfRun::compute(const PhaseTemplate& shape, const double* values, std::size_t count,
                     std::size_t frame_stride, std::size_t value_stride,
                     const FrameDestination& frames, double* metrics, std::size_t noise_first,
                     const Progress& after_call) {
  const auto compile = [&](std::size_t first, std::vector<AberrationPolynomial>& phases) {
    compile_in_parallel(
        phases.size(), FrameCost::template_values, [&](std::size_t lo, std::size_t hi) {
          for (std::size_t i = lo; i < hi; ++i) {
            shape.compile(values + (first + i) * frame_stride, value_stride, phases[i]);
            phases[i].batch_index = static_cast<long long>(first + i);
          }
        });
  };
  compute_compiled(count, compile, frames, metrics, noise_first, after_call);
}

void PsfRun::compute_compiled(std::size_t count, const CompileCall& compile,
                              FrameDestination destination, double* metrics,
                              std::size_t noise_first, const Progress& after_call) {
  if (count == 0) return;
  Backend& backend = this->backend();
  prepare_detector(backend);
  const std::size_t chunk = static_cast<std::size_t>(max_batch_);
  const std::size_t calls = (count + chunk - 1) / chunk;
  const std::size_t frame_bytes =
      static_cast<std::size_t>(geometry_.frame) * geometry_.frame * bytes_per_real(spec_.precision);
  std::shared_ptr<const void>* const kept = destination.kept;
  // Only a device's block of one call can be lent; anything else is computed into new memory
  // of the caller's kind from the start, as into the caller's own.
  // Host memory the backend pinned takes the calls' frames straight from the device.
  bool pinned = false;
  if (kept != nullptr && (backend_site_ == ComputeSite::host || calls > 1 || detector_)) {
    std::shared_ptr<void> memory = new_frame_memory(
        backend, count * frame_bytes, backend_site_ == ComputeSite::device ? &pinned : nullptr);
    destination = {memory.get(), spec_.frames_on_device, nullptr};
    *kept = std::move(memory);
  }
  void* const frames = destination.kept != nullptr ? nullptr : destination.data;
  const std::size_t per_frame = backend.plan().metrics.values_per_frame;
  auto* const out = static_cast<unsigned char*>(frames);
  const bool device_copy = spec_.frames_on_device || destination.on_device;
  const Backend::MemoryCopy copy_device = backend.memory_copy();
  const auto take = [&](std::size_t first, std::size_t n, const FrameBlock& block) {
    if (block.frames != n)
      throw RuntimeFailure(backend_name_ + " backend returned " + std::to_string(block.frames) +
                           " frames for " + std::to_string(n));
    if (destination.kept != nullptr) keep_block(backend, block, frame_bytes, *destination.kept);
    if (frames != nullptr && block.data != out + first * frame_bytes) {
      FrameBlock stored = block;
      if (detector_) {
        stored.data = detector_->process(block.data, n, noise_first + first, 0);
        stored.finite = false;  // the detector's frames are its own
      }
      // Frames on a device are not read by the host: that they stay there is the point.
      if (!spec_.frames_on_device) require_finite(first, stored);
      if (device_copy)
        copy_device(out + first * frame_bytes, stored.data, n * frame_bytes, spec_.device);
      else copy_frames(out + first * frame_bytes, stored.data, n * frame_bytes);
    } else if (frames != nullptr && !spec_.frames_on_device) {
      require_finite(first, block);
    }
    if (metrics != nullptr && !host_metrics_.empty()) {
      complete_metrics(block, metrics + first * host_metrics_.values_per_frame);
    } else if (metrics != nullptr && per_frame > 0) {
      if (block.metrics == nullptr)
        throw RuntimeFailure(backend_name_ + " backend returned no metrics");
      std::copy_n(block.metrics, n * per_frame, metrics + first * per_frame);
    }
    if (after_call) after_call(first + n, count);
  };

  // A host backend writes the frames where they go; it computes at finish() anyway.
  std::vector<AberrationPolynomial>* const slots = call_phases_;
  if (backend_site_ == ComputeSite::host && !detector_ && !device_copy) {
    for (std::size_t c = 0; c < calls; ++c) {
      const std::size_t first = c * chunk;
      slots[0].resize(std::min(chunk, count - first));
      compile(first, slots[0]);
      const FrameBlock block = frames != nullptr
                                   ? backend.compute_into(slots[0], out + first * frame_bytes)
                                   : backend.compute(slots[0]);
      take(first, slots[0].size(), block);
    }
    return;
  }
  // Frames that stay on the device go to the caller's device memory as part of each call, and
  // so do host frames to memory the backend pinned; a backend that cannot returns its own
  // block, which take() copies.
  const bool direct = frames != nullptr && (spec_.frames_on_device || pinned) && !detector_;
  // Call c's polynomials live in slot c % 2 until its finish(), or only until its submit()
  // where the backend copies them there (compile_early).
  const bool compile_early = backend.copies_frames_at_submit();
  std::array<std::size_t, 2> compiled{SIZE_MAX, SIZE_MAX};  // the call each slot holds
  const auto phases_of = [&](std::size_t c) -> std::vector<AberrationPolynomial>& {
    std::vector<AberrationPolynomial>& phases = slots[c % 2];
    if (compiled[c % 2] != c) {
      const std::size_t first = c * chunk;
      phases.resize(std::min(chunk, count - first));
      compile(first, phases);
      compiled[c % 2] = c;
    }
    return phases;
  };
  const auto submit = [&](std::size_t c) {
    if (direct) backend.submit_into(phases_of(c), out + c * chunk * frame_bytes);
    else backend.submit(phases_of(c));
  };
  // Two calls stay queued while the host takes a block (its copy into the caller's memory,
  // its check for values that are not finite): call c + 2 is submitted as soon as call c has
  // finished, before call c's block is taken, which it outlives (Backend). Where the backend
  // copies the polynomials at submit, call c + 2 is also compiled and laid out ahead
  // (prepare_next) while calls c and c + 1 run, so that its submit only launches.
  std::size_t in_flight = 0;
  try {
    submit(0);
    in_flight = 1;
    if (calls > 1) {
      submit(1);
      in_flight = 2;
    }
    for (std::size_t c = 0; c < calls; ++c) {
      if (compile_early && c + 2 < calls) backend.prepare_next(phases_of(c + 2));
      --in_flight;  // a finish() that throws has ended its call
      const FrameBlock block = backend.finish();
      if (c + 2 < calls) {
        submit(c + 2);
        ++in_flight;
      }
      const std::size_t first = c * chunk;
      take(first, std::min(chunk, count - first), block);
    }
  } catch (...) {
    // The device may still write into the backend's buffers: nothing leaves before it is done.
    for (; in_flight > 0; --in_flight) try {
        (void)backend.finish();
      } catch (...) {  // the first failure is the one to report
      }
    throw;
  }
}

}  // namespace psfsim

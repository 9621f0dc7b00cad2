#include "mft_backend.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <vector>

#include "cpu_info.hpp"
#include "encircled_energy.hpp"
#include "mft_propagator.hpp"
#include "psfsim/host_cores.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/frame_metrics.hpp"
#include "psfsim/memory_budget.hpp"
#include "pupil_builder.hpp"
#include "train_stage.hpp"

namespace psfsim::cpu {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The pupil as the MFT reads it: N x N, no padding, no shift modulation; the same aperture
// and maps.
PsfPlan unpadded(PsfPlan plan) {
  plan.padded = plan.samples;
  auto facts = std::make_shared<SampledPupil>(plan.sampled_pupil());
  facts->padded = plan.samples;
  facts->offset = 0;
  facts->shift_waves.assign(static_cast<std::size_t>(plan.samples), 0.0);
  plan.pupil = std::move(facts);
  return plan;
}

// The rows and columns that hold aperture samples: the products skip the rest.
MftSupport aperture_support(const SampledPupil& facts) {
  MftSupport s{facts.samples, 0, facts.samples, 0};
  for (int r = 0; r < static_cast<int>(facts.spans.size()); ++r) {
    const ApertureSpan& span = facts.spans[r];
    if (span.hi <= span.lo) continue;
    s.row_lo = std::min(s.row_lo, r);
    s.row_hi = std::max(s.row_hi, r + 1);
    s.col_lo = std::min(s.col_lo, span.lo);
    s.col_hi = std::max(s.col_hi, span.hi);
  }
  return s;
}

AberrationPolynomial scaled(const AberrationPolynomial& p, double factor) {
  AberrationPolynomial out = p;
  for (double& c : out.plain) c *= factor;
  for (double& c : out.with_rho) c *= factor;
  return out;
}

template <typename T>
class MftBackend final : public Backend {
 public:
  explicit MftBackend(const PsfPlan& plan);

  [[nodiscard]] std::string name() const override { return "cpu"; }
  [[nodiscard]] std::string device_name() const override { return cpu_model(); }
  [[nodiscard]] const PsfPlan& plan() const override { return plan_; }
  [[nodiscard]] int threads() const override { return threads_; }
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
  using Complex = std::complex<T>;
  // Frames whose pupils are held at once: bounded memory for any batch.
  static constexpr int block_frames = 64;

  PsfPlan plan_;
  PupilBuilder builder_;
  MftSupport support_;
  int threads_;
  double normalization_scale_;                 // `peak`: 1 / ((sum A)^2 sum_k weight_k); else 1
  std::vector<MftPropagator<T>> propagators_;  // one per wavelength
  std::vector<TrainStage<T>> trains_;          // one per wavelength, with an optical train
  std::vector<Complex> pupils_;                // block_frames x N x N
  std::vector<T> channel_;                     // block_frames x K x K, one wavelength's |E|^2
  std::vector<PupilScratch> scratch_;
  std::array<double, block_frames> divisors_{};  // each frame's, of the block in hand
  BlockEncircledEnergy<T> ee_;                   // --metrics ee, from the fields propagated
  std::array<std::vector<T>, 2> outputs_;
  std::array<std::vector<double>, 2> metric_outputs_;
  int next_output_ = 0;
  double plan_seconds_ = 0.0;  // the propagators' matrices
};

template <typename T>
MftBackend<T>::MftBackend(const PsfPlan& plan)
    : plan_(plan),
      builder_(unpadded(plan)),
      support_(aperture_support(plan.sampled_pupil())),
      threads_(plan.threads > 0 ? plan.threads : usable_cores()),
      ee_(plan_, block_frames, threads_) {
  double weights = 0.0;
  for (const auto& c : plan_.channels) weights += c.weight;
  normalization_scale_ =
      plan_.normalization == Normalization::peak ? plan_.sampled_pupil().peak_scale / weights : 1.0;
  if (plan_.train) {
    double peak = 0.0;
    for (std::size_t c = 0; c < plan_.channels.size(); ++c)
      peak += plan_.channels[c].weight * plan_.train->channels[c].unmasked_peak;
    if (plan_.normalization == Normalization::peak) normalization_scale_ = 1.0 / peak;
    support_ = MftSupport{plan_.train->support_lo, plan_.train->support_hi, plan_.train->support_lo,
                          plan_.train->support_hi};
    for (const ChannelTrain& c : plan_.train->channels) trains_.emplace_back(c, plan_.samples);
  }
  const std::size_t n = plan_.samples, k = plan_.frame;
  require_memory(
      block_frames * (n * n + k * k) * sizeof(Complex) + 2 * plan_.max_batch * plan_.frame_bytes(),
      available_host_memory(), "mft: N=" + std::to_string(n) + ", K=" + std::to_string(k),
      "host memory");
  const auto start = Clock::now();
  for (const auto& c : plan_.channels)
    propagators_.emplace_back(plan_.samples, plan_.frame, c.pixel_scale, plan_.grid, threads_,
                              plan_.pixel_centre);
  plan_seconds_ = seconds_since(start);
  pupils_.resize(block_frames * n * n);
  channel_.resize(block_frames * k * k);
  scratch_.resize(static_cast<std::size_t>(threads_));
  for (auto& out : outputs_) out.resize(plan_.max_batch * plan_.frame_elements());
  for (auto& out : metric_outputs_) out.resize(plan_.max_batch * plan_.metrics.values_per_frame);
}

template <typename T>
FrameBlock MftBackend<T>::compute_to(std::span<const AberrationPolynomial> frames, T* out) {
  if (frames.empty() || frames.size() > static_cast<std::size_t>(plan_.max_batch))
    throw InputError("cpu backend: " + std::to_string(frames.size()) +
                     " frames given, the plan holds 1 to " + std::to_string(plan_.max_batch));
  const auto start = Clock::now();
  if (out == nullptr) out = outputs_[next_output_].data();
  std::vector<double>& metric_rows = metric_outputs_[next_output_];
  next_output_ ^= 1;
  const std::size_t per_metrics = plan_.metrics.values_per_frame;
  double metrics_seconds = 0.0;
  const std::size_t n2 = static_cast<std::size_t>(plan_.samples) * plan_.samples;
  const std::size_t k2 = plan_.frame_elements();
  const int count = static_cast<int>(frames.size());
  double pupil_seconds = 0.0, mft_seconds = 0.0, intensity_seconds = 0.0, train_seconds = 0.0;

  for (int first = 0; first < count; first += block_frames) {
    const int frames_here = std::min(block_frames, count - first);
    T* dst = out + static_cast<std::size_t>(first) * k2;
    for (std::size_t c = 0; c < plan_.channels.size(); ++c) {
      const SpectralChannel& channel = plan_.channels[c];
      auto t0 = Clock::now();
#pragma omp parallel for num_threads(threads_) schedule(static)
      for (int f = 0; f < frames_here; ++f) {
        const AberrationPolynomial& phase = frames[first + f];
        PupilScratch& scratch = scratch_[omp_get_thread_num()];
        Complex* field = pupils_.data() + static_cast<std::size_t>(f) * n2;
        if (channel.phase_scale == 1.0) builder_.build(phase, field, scratch);
        else
          builder_.build(scaled(phase, channel.phase_scale), field, scratch, channel.phase_scale);
      }
      pupil_seconds += seconds_since(t0);
      if (!trains_.empty()) {
        t0 = Clock::now();
        trains_[c].apply(pupils_.data(), frames_here, threads_);
        train_seconds += seconds_since(t0);
      }
      t0 = Clock::now();
      // One wavelength writes the frames directly; more are weighted into them.
      const bool single = plan_.channels.size() == 1;
      const T scale = static_cast<T>(channel.weight * (single ? normalization_scale_ : 1.0));
      propagators_[c].propagate(pupils_.data(), frames_here, single ? dst : channel_.data(), scale,
                                support_);
      mft_seconds += seconds_since(t0);
      if (per_metrics > 0 && ee_.active()) {  // the very fields the MFT transformed
        t0 = Clock::now();
        ee_.add_channel(pupils_.data(), n2, frames_here, static_cast<int>(c));
        metrics_seconds += seconds_since(t0);
      }
      if (!single) {
        t0 = Clock::now();
        const std::size_t total = static_cast<std::size_t>(frames_here) * k2;
        if (c == 0) std::copy(channel_.begin(), channel_.begin() + total, dst);
        else
          for (std::size_t i = 0; i < total; ++i) dst[i] += channel_[i];
        intensity_seconds += seconds_since(t0);
      }
    }
    auto t0 = Clock::now();
    for (int f = 0; f < frames_here; ++f) {
      T* frame = dst + static_cast<std::size_t>(f) * k2;
      double divisor = 1.0;
      if (plan_.normalization == Normalization::sum) {
        divisor = 0.0;
        for (std::size_t i = 0; i < k2; ++i) divisor += frame[i];
      } else if (plan_.normalization == Normalization::peak && plan_.channels.size() > 1) {
        divisor = 1.0 / normalization_scale_;
      }
      if (divisor != 1.0)
        for (std::size_t i = 0; i < k2; ++i) frame[i] = static_cast<T>(frame[i] / divisor);
      divisors_[f] = divisor;
    }
    intensity_seconds += seconds_since(t0);
    if (per_metrics == 0) continue;
    t0 = Clock::now();
    // Stored = sum_k w_k |E_k|^2 times the one channel's folded `peak` scale, over divisor.
    const double folded = plan_.channels.size() == 1 ? normalization_scale_ : 1.0;
    // Small frames are not worth waking a team for (OpenBLAS's threads may hold the cores).
#pragma omp parallel for num_threads(threads_) schedule(static) if (frames_here * k2 > (1u << 16))
    for (int f = 0; f < frames_here; ++f)
      frame_metrics(plan_.metrics, plan_.sampled_pupil(), frames[first + f],
                    dst + static_cast<std::size_t>(f) * k2, plan_.frame, divisors_[f] / folded,
                    metric_rows.data() + static_cast<std::size_t>(first + f) * per_metrics);
    ee_.write(frames_here, metric_rows.data() + static_cast<std::size_t>(first) * per_metrics,
              per_metrics);
    metrics_seconds += seconds_since(t0);
  }

  FrameBlock block;
  block.data = out;
  block.metrics = per_metrics > 0 ? metric_rows.data() : nullptr;
  block.frames = frames.size();
  block.times.add("pupil", pupil_seconds);
  if (!trains_.empty()) block.times.add("train", train_seconds);
  block.times.add("mft", mft_seconds);
  block.times.add("intensity", intensity_seconds);
  if (per_metrics > 0) block.times.add("metrics", metrics_seconds);
  block.times.total = seconds_since(start);
  return block;
}

}  // namespace

std::unique_ptr<Backend> make_mft_backend(const PsfPlan& plan) {
  if (plan.precision == Precision::single) return std::make_unique<MftBackend<float>>(plan);
  return std::make_unique<MftBackend<double>>(plan);
}

}  // namespace psfsim::cpu

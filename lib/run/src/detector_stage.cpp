#include "detector_stage.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "psfsim/contiguous_parallel.hpp"
#include "psfsim/detector.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/host_cores.hpp"
#include "psfsim/memory_budget.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {


DetectorStage::DetectorStage(const RunSpec& spec, const Geometry& g, double pupil_energy,
                             std::size_t max_frames)
    : precision_(spec.precision),
      normalization_(spec.normalization),
      edge_(g.frame),
      sub_(g.oversample),
      jitter_sub_pixels_(g.jitter_lambda_over_d / (g.pixel_scale_lambda_over_d / g.oversample)),
      photons_(spec.optics.photons.has_value()),
      block_first_(spec.block_first) {
  if (photons_) {
    // The fraction of the pupil's energy in a sub-pixel of side a (lambda/D) is
    // |E|^2 a^2 d^2 / sum A^2, d the pupil sample spacing in units of D (docs/spec.md §6's |E|^2).
    const double a = g.pixel_scale_lambda_over_d / g.oversample;
    const double d = 1.0 / (spec.grid == Grid::centered ? g.samples : g.samples - 1.0);
    photons_scale_ = *spec.optics.photons * a * a * d * d / pupil_energy;
    background_ = spec.optics.background;
    read_noise_ = spec.optics.read_noise;
    seed_ = spec.optics.noise_seed;
  }
  const std::size_t bytes =
      max_frames * static_cast<std::size_t>(edge_) * edge_ * bytes_per_real(precision_);
  // Before the buffers are touched: two output blocks, and two sub-pixel images a worker.
  const std::size_t sub_edge = static_cast<std::size_t>(edge_) * sub_;
  const std::size_t workers =
      std::min(max_frames, static_cast<std::size_t>(std::max(usable_cores(), 1)));
  require_memory(2 * bytes + workers * 2 * sub_edge * sub_edge * bytes_per_real(precision_),
                 available_host_memory(),
                 "the detector stage: " + flag(Option::crop) + " " + std::to_string(edge_) + " " +
                     flag(Option::oversample) + " " + std::to_string(sub_),
                 "host memory");
  out_[0].resize(bytes);
  out_[1].resize(bytes);
}

bool DetectorStage::needs_peak_reference() const noexcept {
  return !photons_ && normalization_ == Normalization::peak;
}

template <typename T>
void DetectorStage::process_frame(const T* in, T* out, T* scratch, std::size_t index) const {
  const std::size_t sub_edge = static_cast<std::size_t>(edge_) * sub_;
  const std::size_t pixels = static_cast<std::size_t>(edge_) * edge_;
  T* image = scratch;  // the sub-pixel image, jittered in place
  T* jitter_scratch = scratch + sub_edge * sub_edge;
  std::memcpy(image, in, sub_edge * sub_edge * sizeof(T));
  apply_jitter(image, static_cast<int>(sub_edge), jitter_sub_pixels_, jitter_scratch);
  bin_oversampled(image, edge_, sub_, out);
  if (photons_) {
    apply_photon_noise(out, pixels, index,
                       NoiseModel{photons_scale_, background_, read_noise_, seed_});
    return;
  }
  // `none`: a pixel holds the mean of its S x S sub-pixels, the intensity over its area in
  // units of one pixel at S = 1, so that a frame's flux does not depend on S.
  double divisor = static_cast<double>(sub_) * sub_;
  if (normalization_ == Normalization::peak) divisor = peak_;
  if (normalization_ == Normalization::sum) {
    divisor = 0.0;
    for (std::size_t i = 0; i < pixels; ++i) divisor += out[i];
  }
  if (divisor != 1.0)
    for (std::size_t i = 0; i < pixels; ++i) out[i] = static_cast<T>(out[i] / divisor);
}

void DetectorStage::set_peak_reference(const void* sub_frame) {
  const std::size_t sub_edge = static_cast<std::size_t>(edge_) * sub_;
  const std::size_t centre = static_cast<std::size_t>(edge_ / 2) * edge_ + edge_ / 2;
  const auto reference = [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> scratch(2 * sub_edge * sub_edge);
    std::vector<T> out(static_cast<std::size_t>(edge_) * edge_);
    std::memcpy(scratch.data(), sub_frame, sub_edge * sub_edge * sizeof(T));
    apply_jitter(scratch.data(), static_cast<int>(sub_edge), jitter_sub_pixels_,
                 scratch.data() + sub_edge * sub_edge);
    bin_oversampled(scratch.data(), edge_, sub_, out.data());
    return static_cast<double>(out[centre]);
  };
  peak_ = precision_ == Precision::single ? reference(float{}) : reference(double{});
  if (!(peak_ > 0.0))
    throw RuntimeFailure(
        "the aberration-free frame is zero on the optical axis: no peak to "
        "normalize by (try " +
        flag(Option::normalize) + " sum or none)");
}

const void* DetectorStage::process(const void* in, std::size_t frames, std::size_t first,
                                   int slot) {
  const std::size_t sub_edge = static_cast<std::size_t>(edge_) * sub_;
  const std::size_t sub_pixels = sub_edge * sub_edge;
  const std::size_t pixels = static_cast<std::size_t>(edge_) * edge_;
  void* out = out_[slot].data();
  const auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* src = static_cast<const T*>(in);
    T* dst = static_cast<T*>(out);
    for_contiguous_runs(frames, [&](std::size_t lo, std::size_t hi) {
      std::vector<T> scratch(2 * sub_pixels);
      for (std::size_t f = lo; f < hi; ++f)
        process_frame(src + f * sub_pixels, dst + f * pixels, scratch.data(),
                      block_first_ + first + f);
    });
  };
  if (precision_ == Precision::single) run(float{});
  else run(double{});
  return out;
}

}  // namespace psfsim

#pragma once
// What a backend needs to know once, before any frame: everything frames of a batch share.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "psfsim/enums.hpp"
#include "psfsim/metrics.hpp"
#include "psfsim/pupil_sampling.hpp"
#include "psfsim/train_plan.hpp"

namespace psfsim {

// One wavelength of the MFT's spectrum (docs/spec.md §6). Its frame is
//   I += weight * |E_k|^2,  E_k[q, p] = sum_r sum_c P_k[r, c] exp(-2 pi i (th_p xi_c + th_q xi_r)),
//   th_q = (q - pixel_centre) * pixel_scale,  P_k = A exp(2 pi i phase_scale W),
// with W the frame's phase in waves at the reference wavelength.
struct SpectralChannel {
  double pixel_scale = 0.5;  // lambda_k/D per computed pixel (s_k, or s_k/S when oversampled)
  double phase_scale = 1.0;  // lambda_ref / lambda_k
  double weight = 1.0;       // w_k (s_k / s_ref)^2
};

struct PsfPlan {
  int samples = 128;  // N
  int padded = 256;   // M
  Grid grid = Grid::centered;
  Precision precision = Precision::single;
  double obscuration = 0.0;
  Normalization normalization = Normalization::peak;
  int frame = 256;  // edge of each computed frame: K (M when not cropped), or S*K
  // fft: FFT of the M x M padded pupil, cropped (docs/spec.md §1). mft: `channels`, at `frame` x
  // `frame` pixel centres; `padded` is then unused, and `peak` divides by (sum A)^2 times the
  // sum of the channels' weights, the value on the optical axis of an aberration-free pupil.
  Propagation propagation = Propagation::fft;
  std::vector<SpectralChannel> channels{SpectralChannel{}};  // mft: one per wavelength
  double pixel_centre = 128;  // mft: the computed pixel on the optical axis (q where th_q = 0)
  int max_batch = 1;          // most frames one compute() call receives
  int threads = 0;            // CPU threads; 0 means all cores
  int device = 0;             // GPU index
  FftEffort fft_effort = FftEffort::automatic;  // CPU: FFTW planner effort
  // CPU: frames the run computes with this plan (its batch times its repeats), the work that
  // `automatic` weighs FFTW_MEASURE's planning against.
  std::size_t run_frames = 1;
  std::string fftw_wisdom;            // CPU: wisdom file to import before and export after planning
  bool fftw_wisdom_is_cache = false;  // the default cache: failures to read or write it pass
  // GPU: time pupil, fft, intensity and transfer separately even where events between the
  // stages cost as much as the stages (small sizes); the default fuses them for speed.
  bool stage_timing = false;
  // GPU: the frames stay in the device's memory (FrameBlock::data is a device address), for a
  // caller that keeps them there (the Python module's result="device"); host memory otherwise.
  bool frames_on_device = false;
  // GPU: the caller reads no stage times (the Python module), so no events time the calls,
  // each of which costs a lone call time; FrameBlock::times then holds only its total.
  // --stage-timing wins over it.
  bool untimed = false;
  // docs/spec.md §7's per-frame metrics, computed in the same call as the frames; with
  // metrics.store_frames false no frame need leave the backend.
  MetricsPlan metrics;
  // The sampled pupil's facts, shared by every copy of the plan; set by with_sampled_pupil().
  std::shared_ptr<const SampledPupil> pupil;
  // mft: the optical train between the pupil and the detector, one ChannelTrain per channel;
  // null for none. With it `peak` divides by the unmasked train's peak (frames are contrast).
  std::shared_ptr<const TrainPlan> train;

  // The sampled pupil; throws std::logic_error for a plan made without with_sampled_pupil().
  [[nodiscard]] const SampledPupil& sampled_pupil() const;

  [[nodiscard]] std::size_t frame_elements() const noexcept {
    return static_cast<std::size_t>(frame) * static_cast<std::size_t>(frame);
  }
  [[nodiscard]] std::size_t frame_bytes() const noexcept {
    return frame_elements() * bytes_per_real(precision);
  }
};

// Works out the sampled pupil of `plan` once; throws InputError for an aperture without samples.
[[nodiscard]] PsfPlan with_sampled_pupil(PsfPlan plan);

}  // namespace psfsim

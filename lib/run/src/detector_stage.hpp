#pragma once
// The detector of docs/spec.md §6 after the backend: jitter on the S*K sub-pixel image, pixel
// integration to K x K, then the normalization (which needs the binned image), or photon
// noise instead of it. Host code for every backend: its cost is a few passes over frames that
// are already in host memory, beside a backend call that computes S*S times as many pixels.
#include <cstddef>
#include <vector>

#include "psfsim/run_spec.hpp"

namespace psfsim {

class DetectorStage {
 public:
  // `pupil_energy`: sum of A^2 over the pupil samples (Parseval's total, for --photons).
  DetectorStage(const RunSpec& spec, const Geometry& g, double pupil_energy,
                std::size_t max_frames);

  // `peak` divides by the optical-axis pixel of the aberration-free frame after the same
  // jitter and binning; this takes that frame (|E|^2 sub-pixels, as the backend gives it).
  [[nodiscard]] bool needs_peak_reference() const noexcept;
  void set_peak_reference(const void* sub_frame);

  // `frames` sub-pixel frames from `in` into buffer `slot` (0 or 1: a block is written while
  // the next is processed); frame indices start at `first` (they key the noise).
  [[nodiscard]] const void* process(const void* in, std::size_t frames, std::size_t first,
                                    int slot);

 private:
  template <typename T>
  void process_frame(const T* in, T* out, T* scratch, std::size_t index) const;

  Precision precision_;
  Normalization normalization_;
  int edge_;  // K
  int sub_;   // S
  double jitter_sub_pixels_;
  bool photons_;
  double photons_scale_ = 0.0;  // photo-electrons per unit of binned |E|^2
  double background_ = 0.0;
  double read_noise_ = 0.0;
  std::uint64_t seed_ = 0;
  std::size_t block_first_ = 0;  // the noise is keyed by the whole batch's frame index
  double peak_ = 1.0;
  std::vector<unsigned char> out_[2];
};

}  // namespace psfsim

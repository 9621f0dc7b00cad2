#pragma once
// What a backend needs to know once, before any frame: everything frames of a batch share.
#include <cstddef>
#include <memory>
#include <string>

#include "psfsim/enums.hpp"
#include "psfsim/pupil_facts.hpp"

namespace psfsim {

struct PsfPlan {
  int samples = 128;        // N
  int padded = 256;         // M
  Grid grid = Grid::centered;
  Precision precision = Precision::single;
  double obscuration = 0.0;
  Normalization normalization = Normalization::peak;
  int frame = 256;          // K: edge of each stored frame (M when not cropped)
  int max_batch = 1;        // most frames one compute() call receives
  int threads = 0;          // CPU threads; 0 means all cores
  int device = 0;           // GPU index
  FftEffort fft_effort = FftEffort::measure;  // CPU: FFTW planner effort
  std::string fftw_wisdom;   // CPU: wisdom file to import before and export after planning
  bool fftw_wisdom_is_cache = false;  // the default cache: failures to read or write it pass
  // GPU: time pupil, fft, intensity and transfer separately even where events between the
  // stages cost as much as the stages (small sizes); the default fuses them for speed.
  bool stage_timing = false;
  // The sampled pupil's facts, shared by every copy of the plan; set by with_pupil_facts().
  std::shared_ptr<const PupilFacts> pupil;

  // The pupil facts; throws std::logic_error for a plan made without with_pupil_facts().
  [[nodiscard]] const PupilFacts& pupil_facts() const;

  [[nodiscard]] std::size_t frame_elements() const noexcept {
    return static_cast<std::size_t>(frame) * static_cast<std::size_t>(frame);
  }
  [[nodiscard]] std::size_t frame_bytes() const noexcept {
    return frame_elements() * bytes_per_real(precision);
  }
};

// Works out the pupil facts of `plan` once; throws InputError for an aperture without samples.
[[nodiscard]] PsfPlan with_pupil_facts(PsfPlan plan);

}  // namespace psfsim

#pragma once
// The options `run` and `sweep` share: the pupil (grid, terms, aperture, normalization) and
// how the machine computes it (threads, device, FFT planning, stage timing).
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "psfsim/run_spec.hpp"

namespace psfsim::app {

struct PupilOptions {
  std::string grid = "centered";
  std::vector<std::string> seidel;
  std::vector<std::string> zernike;
  std::string zernike_order = "noll";
  std::string zernike_norm;  // empty: the ordering's own (default_norm)
  double obscuration = 0.0;
  std::string normalize = "peak";
  int threads = 0;
  int device = 0;
  std::string wisdom;
  std::string fft_effort;  // "": measure, or estimate with --wisdom none (deterministic plans)
  bool stage_timing = false;
};

void add_pupil_options(CLI::App& command, PupilOptions& options);
// How --zernike, --vary, --random and --frames index and normalize Zernikes.
[[nodiscard]] ZernikeConvention zernike_convention(const PupilOptions& options);
// The fixed phase terms as written, Zernikes under zernike_convention() (to_noll maps them);
// throws InputError naming --seidel or --zernike.
[[nodiscard]] Aberration parse_terms(const PupilOptions& options);
// Copies everything but the terms into `spec`, the Zernike convention included.
void apply(const PupilOptions& options, RunSpec& spec);

}  // namespace psfsim::app

#pragma once
// How an optical train (optical_train.hpp) is computed, worked out once per plan on the host in
// double and shared by every backend, so that they apply the same matrices and masks.
//
// Every plane maps the N x N field of the pupil plane before it to the field after it, on the
// same grid. A focal-plane mask is one or more passes of the matrix Fourier transform
// (Soummer et al. 2007) through windows of the focal plane, each
//   L += B (G .* (A P A^T)) B^T,   A[q][i] = exp(-2 pi i theta_q xi_i),   B = A^H,
// with G the mask (less 1 for a mask that is clear outside its window: L starts from P, as
// Babinet's principle has it) times the pass's window and dtheta^2 dxi^2. A spot's or a
// map's one pass samples exactly its support; a vortex or four-quadrant mask covers the whole
// focal plane in nested passes, coarse outside and finer towards the centre, blended by
// raised-cosine windows that sum to one (docs/coronagraphy.md). A stop multiplies the field.
// A distance propagates it by the angular spectrum on a zero-padded grid.
#include <complex>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "psfsim/enums.hpp"
#include "psfsim/optical_train.hpp"

namespace psfsim {

struct SampledPupil;

using Complex128 = std::complex<double>;

struct MaskPass {
  int points = 0;                   // m: samples on each axis of the pass's window
  double spacing = 0.0;             // dtheta, lambda_k/D per sample
  double centre = 0.0;              // the index of theta = 0 on each axis
  std::vector<Complex128> forward;  // A, m x N, row-major
  std::vector<Complex128> inverse;  // B = A^H, N x m, row-major
  std::vector<Complex128> weights;  // G, m x m, row-major
  // Where the pass's window is exactly one period of the field's spectrum (m dtheta dxi = 1,
  // m >= N), A = U F V: F the m-point DFT, U and V diagonal phases. U cancels against
  // B = A^H, so the pass is V* [F^H (G .* F (V P V) F^T) conj(F)]_{N x N} V*: FFTs of the
  // field zero-padded to m x m, cropped back. `twist` holds V's N entries; it is empty for a
  // pass without that structure, which the backends compute by the matrices.
  std::vector<Complex128> twist;
  [[nodiscard]] bool periodic() const noexcept { return !twist.empty(); }
};

// A distance is a pass too: its matrices are the DFT of the field zero-padded to 2N x 2N and
// its inverse cropped back to N x N, its weights the angular spectrum's transfer function.
struct TrainStep {
  enum class Kind { mask, stop };
  Kind kind = Kind::mask;
  // mask: L = keep * P + sum over the passes.
  double keep = 0.0;
  std::vector<MaskPass> passes;
  // stop: the N x N 0/1 map the field is multiplied by.
  std::vector<double> stop;
};

// One wavelength's steps (masks scale with lambda_ref/lambda_k, stops do not).
struct ChannelTrain {
  std::vector<TrainStep> steps;
  // The field on the optical axis of the aberration-free train without its focal-plane
  // masks, |sum L|^2: what `peak` normalization divides by, so that frames are contrast.
  double unmasked_peak = 0.0;
};

struct TrainPlan {
  std::vector<ChannelTrain> channels;
  // Rows and columns of the last plane's field outside which it is zero (the last stop's
  // bounding box), or the whole grid: the detector's transform may skip the rest.
  int support_lo = 0;
  int support_hi = 0;
  std::string description;  // one line per plane, for the file's attributes
};

// The facts the plan needs beyond the train.
struct TrainSampling {
  int samples = 0;                        // N (the grid is the sampled pupil's)
  std::vector<double> wavelength_ratios;  // lambda_ref / lambda_k per channel (1: monochromatic)
  double diameter_m = 0.0;                // D, for distances (0: none given)
  double reference_wavelength_m = 0.0;    // for distances
};

// Throws InputError for a train the sampling cannot compute (a mask finer than the grid, a
// distance without --diameter and a wavelength, one beyond the propagator's valid range).
[[nodiscard]] std::shared_ptr<const TrainPlan> make_train_plan(const OpticalTrain& train,
                                                               const TrainSampling& sampling,
                                                               const SampledPupil& pupil);

// How each plane of `train` is sampled on a grid of N samples, one line per plane, for the
// file's attributes: a spot's or a map's samples, a whole-plane mask's passes, a distance's
// padded grid.
[[nodiscard]] std::string train_sampling_text(const OpticalTrain& train, int samples);

// Applies one channel's steps to `field` (N x N, row-major) in double: the reference the
// tests and the plan's own peak use, plainly written, not for speed.
void apply_train(const ChannelTrain& channel, int samples, std::vector<Complex128>& field);

// The sampled stop of `s` on the grid of `coordinates` (x_i in [-1, 1]), row-major, 0 or 1,
// by the aperture's own rules (aperture_geometry.hpp).
[[nodiscard]] std::vector<double> stop_mask(const PupilStop& s,
                                            const std::vector<double>& coordinates);

}  // namespace psfsim

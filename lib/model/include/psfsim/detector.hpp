#pragma once
// The detector effects of docs/spec.md §6 on host frames, in the spec's order: jitter on the
// (S·K)×(S·K) sub-pixel image (σ in sub-pixels), then binning to K×K, then photon noise.
// Images are square and row-major; float and double are instantiated.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "psfsim/enums.hpp"
#include "psfsim/optics_spec.hpp"
#include "psfsim/photon_noise.hpp"

namespace psfsim {

// Pixel integration: out[K×K] = the sum of each S×S block of sub[(S·K)×(S·K)], summed in
// double. S = 1 copies exactly.
template <typename T>
void bin_oversampled(const T* sub, int K, int S, T* out);

// Gaussian pointing jitter, RMS σ per axis in pixels of the image it is applied to.
//
// The kernel is the Gaussian sampled at integer offsets n, exp(-n²/2σ²), for |n| <= ceil(4σ)
// (the 6e-5 of the mass beyond is dropped), normalized to sum 1 over those offsets. Sampled,
// not integrated over a pixel: the image holds point samples of the intensity (pixel
// integration is bin_oversampled's job), and a pixel-integrated kernel would blur by a pixel
// box a second time (variance σ² + 1/12). The sampled kernel's variance is σ² within 0.3%
// for σ >= 0.7 (the truncation takes 0.1%) but falls short below: 0.86σ² at σ = 0.5, 0.09σ²
// at σ = 0.3. A jitter below half a pixel needs --oversample to be resolved.
[[nodiscard]] int jitter_radius(double sigma_pixels);
// Weights for offsets 0, ±1, ..., ±min(jitter_radius, max_offset), normalized over the whole
// truncated kernel (what a backend uploads). σ = 0 gives {1}.
[[nodiscard]] std::vector<double> jitter_kernel(double sigma_pixels, int max_offset);

// Separable convolution of the edge×edge image with the kernel above, rows then columns,
// summed in double; outside the frame is zero, so energy that jitter moves out is lost.
// σ = 0 leaves the image untouched. scratch: edge×edge values. Throws std::invalid_argument
// for a negative or non-finite σ (the option's parser rejects those first).
template <typename T>
void apply_jitter(T* image, int edge, double sigma_pixels, T* scratch);

// Largest |z| of the Box-Muller normal draws of photon_noise.hpp and aberration_sources.hpp:
// sqrt(-2 ln u), their uniforms u being at least 2^-53.
inline constexpr double max_normal_draw = 8.5722;

// The most photo-electrons a pixel of a run with --photons can record: `photon_share` times
// --photons (the share of the light one pixel can hold, from the point-sampled |E|^2), plus
// --background, their Poisson tail (10 sigma) and max_normal_draw sigma of --read-noise.
[[nodiscard]] double largest_count(const OpticsSpec& o, double photon_share);
// Throws InputError naming --photons, --background or --read-noise (the largest part) where
// largest_count passes the largest value of `precision`.
void check_count_range(const OpticsSpec& o, Precision precision, double photon_share);

// noisy_pixel (photon_noise.hpp) on every pixel, pixel i of the frame being index i.
template <typename T>
void apply_photon_noise(T* frame, std::size_t pixels, std::uint64_t frame_index,
                        const NoiseModel& m);

}  // namespace psfsim

#pragma once
// The spectrum of a polychromatic run (docs/spec.md §6): wavelengths with energy weights, and the
// weight each wavelength's |E_k|^2 frame gets in the detector image.
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace psfsim {

struct SpectralLine {
  double wavelength_m = 0.0;
  double weight = 0.0;  // energy fraction; the weights of a spectrum sum to 1
};

// Each wavelength is a frame to compute; more is surely a typo (and memory the run won't have).
inline constexpr int max_spectral_lines = 10000;

// "550nm:1,600nm:2": comma-separated λ:w, each λ a positive length (units.hpp) and each w a
// finite weight > 0; a bare λ has weight 1, so "500nm,550nm,600nm" is a flat spectrum. The
// user's order is kept; weights are normalized to sum 1. Wavelengths that agree to 1e-12
// (the same one spelled twice, "550nm" and "0.55um") are an error.
[[nodiscard]] std::vector<SpectralLine> parse_wavelengths(std::string_view text,
                                                          std::string_view option);

// "500nm-600nm,5": COUNT wavelengths evenly spaced from λmin to λmax, both ends included
// (COUNT = 1: the centre), equal weights. λmin < λmax, 1 <= COUNT <= max_spectral_lines.
[[nodiscard]] std::vector<SpectralLine> band_spectrum(std::string_view text,
                                                      std::string_view option);

// The explicit reference wavelength (--wavelength) if given, else the weighted mean.
[[nodiscard]] double reference_wavelength(std::span<const SpectralLine> lines,
                                          std::optional<double> explicit_m);

// The factor of each |E_k|^2 in I = Σ w_k (s_k/s_ref)^2 |E_k|^2: on a fixed detector the pixel
// scale in λ/D is s_k = α·D/λ_k, so s_k/s_ref = λ_ref/λ_k.
[[nodiscard]] std::vector<double> spectral_frame_weights(std::span<const SpectralLine> lines,
                                                         double reference_m);

}  // namespace psfsim

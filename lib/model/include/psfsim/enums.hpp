#pragma once
// The small closed vocabularies of docs/spec.md §1, with their spelling on the command line and in
// files.
#include <optional>
#include <string_view>

namespace psfsim {

enum class Precision { single, double_ };
enum class Grid { centered, linspace };
enum class Normalization { none, peak, sum };
// How hard the CPU backend's FFT planner searches (FFTW_ESTIMATE ... FFTW_EXHAUSTIVE);
// `automatic` is the user's `auto`: the backend picks estimate or measure from the run's work.
enum class FftEffort { estimate, measure, patient, exhaustive, automatic };
// How the focal-plane field is computed (docs/spec.md §6): `automatic` is the user's `auto`,
// resolved
// to one of the other two before any plan is made.
enum class Propagation { fft, mft, automatic };

[[nodiscard]] std::string_view to_string(Precision p) noexcept;
[[nodiscard]] std::string_view to_string(Grid g) noexcept;
[[nodiscard]] std::string_view to_string(Normalization n) noexcept;
[[nodiscard]] std::string_view to_string(FftEffort e) noexcept;
[[nodiscard]] std::string_view to_string(Propagation p) noexcept;

[[nodiscard]] std::optional<Precision> parse_precision(std::string_view s) noexcept;
[[nodiscard]] std::optional<Grid> parse_grid(std::string_view s) noexcept;
[[nodiscard]] std::optional<Normalization> parse_normalization(std::string_view s) noexcept;
[[nodiscard]] std::optional<FftEffort> parse_fft_effort(std::string_view s) noexcept;
[[nodiscard]] std::optional<Propagation> parse_propagation(std::string_view s) noexcept;

[[nodiscard]] constexpr std::size_t bytes_per_real(Precision p) noexcept {
  return p == Precision::single ? 4 : 8;
}

}  // namespace psfsim

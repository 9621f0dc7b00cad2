#pragma once
// How the user's Zernike indices and coefficients are read (docs/spec.md §7: --zernike-order,
// --zernike-norm): applied to --zernike, --vary, --random and CSV headers alike. The phase
// model holds Noll-indexed, RMS-normalized terms only; to_noll() is the one place a user's
// term becomes one, so compile_phase, the backends and /parameters never see a convention.
// In a RunSpec, `frames` hold Noll terms; `zernike` says how the as-written fields
// (fixed_terms, vary, random, frames_file) read, for the effective configuration.
#include <optional>
#include <string>
#include <string_view>

namespace psfsim {

// noll: R. J. Noll, JOSA 66, 207 (1976), j >= 1. ansi: ANSI Z80.28 / OSA single index
// j = (n(n+2)+m)/2 from 0. fringe: the University of Arizona (Wyant) order, 1-37, as Zemax's
// "Zernike Fringe" writes it.
enum class ZernikeOrdering { noll, ansi, fringe };
// rms: Noll's orthonormal terms, c is the term's RMS in waves (piston aside). unit: R_n^m(1) = 1,
// no sqrt(2(n+1)) or sqrt(n+1) factor, c is the term's value at the rim.
enum class ZernikeNorm { rms, unit };

struct ZernikeConvention {
  ZernikeOrdering order = ZernikeOrdering::noll;
  ZernikeNorm norm = ZernikeNorm::rms;
  bool operator==(const ZernikeConvention&) const = default;
};

[[nodiscard]] std::string_view to_string(ZernikeOrdering o) noexcept;  // "noll", "ansi", "fringe"
[[nodiscard]] std::string_view to_string(ZernikeNorm n) noexcept;      // "rms", "unit"
[[nodiscard]] std::optional<ZernikeOrdering> parse_zernike_ordering(std::string_view s) noexcept;
[[nodiscard]] std::optional<ZernikeNorm> parse_zernike_norm(std::string_view s) noexcept;
// What each ordering's users expect without --zernike-norm: rms, except unit for fringe.
[[nodiscard]] ZernikeNorm default_norm(ZernikeOrdering o) noexcept;
// Prose name for messages: "Noll", "ANSI", "Fringe".
[[nodiscard]] std::string_view display_name(ZernikeOrdering o) noexcept;

// The indices an ordering accepts: up to psfsim's largest radial order (24), and Fringe's 37.
struct ZernikeIndexRange {
  int first = 1;
  int last = 1;
};
[[nodiscard]] ZernikeIndexRange index_range(ZernikeOrdering o) noexcept;
// Empty when `index` is valid under `o`, else why: "Fringe indices run from 1 to 37".
[[nodiscard]] std::string index_problem(int index, ZernikeOrdering o);

// A user's term as psfsim's Noll term: index -> Noll j, and coefficient c -> c / divisor
// (1 for rms; the Noll factor sqrt(n+1) or sqrt(2(n+1)) for unit). A division, the same one
// everywhere, so that `--zernike-order fringe --zernike 9,c` and `--zernike 11,c/sqrt(5)`
// give bit-identical frames.
struct NollMapping {
  int j = 1;
  double divisor = 1.0;
};
// `index` must be valid (index_problem empty).
[[nodiscard]] NollMapping to_noll(int index, const ZernikeConvention& convention);

}  // namespace psfsim

#pragma once
// The three ways to define a batch of B frames (on top of the fixed terms every frame has):
//   --vary TERM,START,STOP,COUNT       one term stepped linearly (a through-focus series)
//   --random JMIN-JMAX,RMS,COUNT,SEED  Noll terms drawn from a normal distribution
//   --frames FILE                      a CSV table, one row per frame, one column per term
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "psfsim/phase_terms.hpp"

namespace psfsim {

// A term named as in /parameters and CSV headers: "Z4" (Noll j = 4) or "S2_1" (Seidel l, m).
struct TermId {
  bool zernike = true;
  int j = 0;     // Zernike
  int l = 0;     // Seidel
  int m = 0;
  // The fields a kind does not use stay 0, so equal ids name the same term.
  bool operator==(const TermId&) const = default;
};

[[nodiscard]] TermId parse_term_id(std::string_view name, std::string_view context);
// Sets the term to `waves` in `terms`, replacing any value it had there.
void set_term(PhaseTerms& terms, const TermId& id, double waves);

struct VarySpec {
  TermId term;
  double start = 0.0;
  double stop = 0.0;
  int count = 1;
};

struct RandomSpec {
  int j_min = 2;
  int j_max = 2;
  double rms = 0.0;  // expected RMS wavefront error in waves: each term gets rms^2 / terms
  int count = 1;
  std::uint64_t seed = 0;
};

inline constexpr int max_frames = 100'000'000;

[[nodiscard]] VarySpec parse_vary(std::string_view text);
[[nodiscard]] RandomSpec parse_random(std::string_view text);

[[nodiscard]] std::vector<PhaseTerms> expand(const PhaseTerms& fixed, const VarySpec& vary);
[[nodiscard]] std::vector<PhaseTerms> expand(const PhaseTerms& fixed, const RandomSpec& random);
// Throws InputError naming the file and line for a missing column, unknown term or bad number.
[[nodiscard]] std::vector<PhaseTerms> read_frames_csv(const PhaseTerms& fixed,
                                                      const std::filesystem::path& path);

}  // namespace psfsim

#pragma once
// The three ways to define a batch of B frames (on top of the fixed terms every frame has):
//   --vary TERM,START,STOP,COUNT       one term stepped linearly (a through-focus series)
//   --random JMIN-JMAX,RMS,COUNT,SEED  Zernike terms drawn from a normal distribution
//   --frames FILE                      a CSV table, one row per frame, one column per term
// Zernike names and ranges are read under the run's ZernikeConvention; the frames they make
// hold Noll terms.
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "psfsim/aberration.hpp"
#include "psfsim/zernike_convention.hpp"

namespace psfsim {

// A term named as in CSV headers and --vary: "Z4" (Zernike 4 under the run's convention),
// "S2_1" (Seidel l, m), resolved to the term the phase model holds, or "field_x"/"field_y",
// one coordinate of the frame's field point (in units of the field radius).
struct TermId {
  bool zernike = true;
  int j = 0;  // Zernike: the Noll index
  int l = 0;  // Seidel
  int m = 0;
  double divisor = 1.0;  // the user's value / divisor is the term's (NollMapping)
  int field_axis = -1;   // 0: field_x, 1: field_y (then zernike is false); -1: a phase term
  // The fields a kind does not use stay 0, so equal ids name the same term.
  bool operator==(const TermId&) const = default;
};

[[nodiscard]] TermId parse_term_id(std::string_view name, std::string_view context,
                                   const ZernikeConvention& convention = {});
// Sets the term to `value` / id.divisor in `terms`, replacing any value it had there; a field
// coordinate places the frame (at 0 on the other axis, if it had no field point).
void set_term(Aberration& terms, const TermId& id, double value);
// The value set_term stores for the user's `value`.
[[nodiscard]] inline double stored_value(const TermId& id, double value) {
  return id.zernike ? value / id.divisor : value;
}

struct VarySpec {
  TermId term;
  double start = 0.0;
  double stop = 0.0;
  int count = 1;
};

struct RandomSpec {
  int j_min = 2;  // under `order`
  int j_max = 2;
  ZernikeOrdering order = ZernikeOrdering::noll;
  double rms = 0.0;  // expected RMS wavefront error in waves: each term gets rms^2 / terms
  int count = 1;
  std::uint64_t seed = 0;
};

inline constexpr int max_frames = 100'000'000;

[[nodiscard]] VarySpec parse_vary(std::string_view text, const ZernikeConvention& convention = {});
// RMS is the wavefront's whatever the normalization, so only the ordering matters here.
[[nodiscard]] RandomSpec parse_random(std::string_view text,
                                      ZernikeOrdering order = ZernikeOrdering::noll);

// --random's frames, drawn as a run reaches them rather than all held (10^7 frames' terms take
// 2.5 GB), from the stream that `random` seeds.
struct RandomAberrations {
  Aberration fixed;   // Noll terms, on every frame
  RandomSpec random;  // random.count: the frames here
};

// The draws of RandomAberrations, chunk by chunk: the k-th draw of a frame goes to the k-th index
// of the range, from the raw 64-bit Mersenne Twister stream (fully specified by the C++
// standard) through Box-Muller, in frame order. Moving forward skips; moving backward (a
// repeat) starts the stream again.
class RandomAberrationDraws {
 public:
  // Frames [first, first + random.count) of the stream (an MPI rank's block starts after the
  // others'), indexed from 0 here.
  explicit RandomAberrationDraws(RandomAberrations frames, std::size_t first = 0);
  [[nodiscard]] std::size_t size() const noexcept { return frames_.random.count; }
  // Draws the values of frames [first, first + count); frame() then builds any of them, from
  // any thread, until the next draw().
  void draw(std::size_t first, std::size_t count);
  [[nodiscard]] Aberration frame(std::size_t f) const;
  // Frame f's drawn values, one per ids() term, as frame() stores them (replacing a fixed
  // term's value), without building the frame.
  void values(std::size_t f, double* out) const;
  [[nodiscard]] const std::vector<TermId>& ids() const noexcept { return ids_; }
  // The terms every frame holds, which ids() are set over.
  [[nodiscard]] const Aberration& fixed() const noexcept { return frames_.fixed; }
  // A frame with every term the frames have, placeholder values: their degree and columns.
  [[nodiscard]] Aberration any_frame() const;

 private:
  RandomAberrations frames_;
  std::size_t first_ = 0;  // in the stream
  std::vector<TermId> ids_;
  double sigma_ = 0.0;
  std::size_t terms_ = 0;  // per frame, fixed ones included
  std::mt19937_64 engine_;
  std::uint64_t consumed_ = 0;  // raw values the engine has given
  std::vector<std::uint64_t> raw_;
  std::uint64_t raw_first_ = 0;  // the stream index of raw_[0]
};

[[nodiscard]] std::vector<Aberration> expand(const Aberration& fixed, const VarySpec& vary);
// All of RandomAberrations{fixed, random}, held.
[[nodiscard]] std::vector<Aberration> expand(const Aberration& fixed, const RandomSpec& random);
// --frames' CSV table as `in` holds it (io's read_frames_csv opens the file); `path` names it
// in messages. Throws InputError naming the file and line for a missing column, unknown term
// or bad number.
[[nodiscard]] std::vector<Aberration> parse_frames_csv(const Aberration& fixed, std::istream& in,
                                                       const std::filesystem::path& path,
                                                       const ZernikeConvention& convention = {});

}  // namespace psfsim

#include "psfsim/finite_check.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

#include "psfsim/contiguous_parallel.hpp"

namespace psfsim {
namespace {

// Each host build runs on any x86-64, but this scan reads every frame a run returns to the
// host (a Python call of one PSF among them): one clone of the loop per vector width, chosen
// by the loader for the CPU at hand, at least halves its time on AVX2 and AVX-512 machines.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PSFSIM_VECTOR_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define PSFSIM_VECTOR_CLONES
#endif

// All-ones exponent bits: infinity or NaN. Bits are OR-reduced without branches, so the
// loop vectorizes.
template <typename Bits, Bits exponent>
PSFSIM_VECTOR_CLONES bool any_non_finite(const void* data, std::size_t count) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  Bits found = 0;
  for (std::size_t i = 0; i < count; ++i) {
    Bits v;
    std::memcpy(&v, bytes + i * sizeof(Bits), sizeof(Bits));
    found |= static_cast<Bits>((v & exponent) == exponent);
  }
  return found != 0;
}

bool frame_non_finite(const void* frame, std::size_t elements, Precision precision) {
  if (precision == Precision::single)
    return any_non_finite<std::uint32_t, 0x7f800000u>(frame, elements);
  return any_non_finite<std::uint64_t, 0x7ff0000000000000ull>(frame, elements);
}

}  // namespace

std::optional<std::size_t> first_non_finite_frame(const void* data, std::size_t frames,
                                                  std::size_t frame_elements, Precision precision) {
  const std::size_t frame_bytes = frame_elements * bytes_per_real(precision);
  const auto* bytes = static_cast<const unsigned char*>(data);
  // The whole block first: the common case is one pass with no frame found. On one core the
  // scan of a block of thousands of frames (a Python batch to a NumPy array) set the pace of
  // the call, so large blocks are looked at in pieces of whole frames on every core.
  constexpr std::size_t piece_bytes = std::size_t{1} << 22;
  const std::size_t per_piece = std::max<std::size_t>(1, piece_bytes / frame_bytes);
  const std::size_t pieces = (frames + per_piece - 1) / per_piece;
  std::atomic<bool> found = false;
  for_contiguous_runs(pieces, [&](std::size_t lo, std::size_t hi) {
    const std::size_t first = lo * per_piece, last = std::min(frames, hi * per_piece);
    if (frame_non_finite(bytes + first * frame_bytes, (last - first) * frame_elements, precision))
      found = true;
  });
  if (!found) return std::nullopt;
  for (std::size_t f = 0; f < frames; ++f)
    if (frame_non_finite(bytes + f * frame_bytes, frame_elements, precision)) return f;
  return std::nullopt;
}

}  // namespace psfsim

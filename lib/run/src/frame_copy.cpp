#include "psfsim/frame_copy.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "psfsim/contiguous_parallel.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace psfsim {
namespace {

// SSE2 is part of every x86-64, so the stores need no dispatch on the CPU at hand.
void stream_copy(unsigned char* to, const unsigned char* from, std::size_t bytes) {
#if defined(__SSE2__)
  constexpr std::size_t line = 64;
  const std::size_t head =
      std::min(bytes, (line - reinterpret_cast<std::uintptr_t>(to) % line) % line);
  std::memcpy(to, from, head);
  to += head;
  from += head;
  bytes -= head;
  const std::size_t body = bytes - bytes % line;
  for (std::size_t i = 0; i < body; i += line) {
    const auto* source = reinterpret_cast<const __m128i*>(from + i);
    auto* target = reinterpret_cast<__m128i*>(to + i);
    const __m128i a = _mm_loadu_si128(source), b = _mm_loadu_si128(source + 1);
    const __m128i c = _mm_loadu_si128(source + 2), d = _mm_loadu_si128(source + 3);
    _mm_stream_si128(target, a);
    _mm_stream_si128(target + 1, b);
    _mm_stream_si128(target + 2, c);
    _mm_stream_si128(target + 3, d);
  }
  std::memcpy(to + body, from + body, bytes - body);
  _mm_sfence();  // the stores are visible before the pass reports the piece done
#else
  std::memcpy(to, from, bytes);
#endif
}

}  // namespace

void copy_frames(void* to, const void* from, std::size_t bytes) {
  auto* const target = static_cast<unsigned char*>(to);
  const auto* const source = static_cast<const unsigned char*>(from);
  constexpr std::size_t piece = std::size_t{1} << 20;
  if (bytes < 4 * piece) {
    std::memcpy(target, source, bytes);
    return;
  }
  for_contiguous_runs((bytes + piece - 1) / piece,
                      [&](std::size_t lo, std::size_t hi) {
                        stream_copy(target + lo * piece, source + lo * piece,
                                    std::min(hi * piece, bytes) - lo * piece);
                      },
                      8);
}

}  // namespace psfsim

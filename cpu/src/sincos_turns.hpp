#pragma once
// sin and cos of 2*pi*w for w in waves, written so that a loop over w vectorizes: no libm
// calls, no branches. The reduction is done in double, exactly for |w| < 2^50, so the
// polynomial only ever sees |angle| <= pi/4, where a short Taylor series is accurate to
// the last bit of T.
#include <cstdint>
#include <cstring>

namespace psfsim::cpu {

template <typename T>
struct SinCos {
  T sin;
  T cos;
};

template <typename T>
inline SinCos<T> sincos_turns(double w) {
  // Round 4w to the nearest integer q by the 1.5 * 2^52 trick (valid for |4w| < 2^51).
  constexpr double magic = 6755399441055744.0;
  const double shifted = 4.0 * w + magic;
  const double q = shifted - magic;
  std::uint64_t bits;
  std::memcpy(&bits, &shifted, sizeof bits);
  const unsigned quadrant = static_cast<unsigned>(bits) & 3u;

  const T a = static_cast<T>((w - 0.25 * q) * 6.283185307179586476925286766559);
  const T a2 = a * a;
  T s;
  T c;
  if constexpr (sizeof(T) == sizeof(double)) {
    s = a * (1 + a2 * (-1.0 / 6 + a2 * (1.0 / 120 + a2 * (-1.0 / 5040 + a2 * (1.0 / 362880 +
        a2 * (-1.0 / 39916800 + a2 * (1.0 / 6227020800 + a2 * (-1.0 / 1307674368000 +
        a2 * (1.0 / 355687428096000)))))))));
    c = 1 + a2 * (-1.0 / 2 + a2 * (1.0 / 24 + a2 * (-1.0 / 720 + a2 * (1.0 / 40320 +
        a2 * (-1.0 / 3628800 + a2 * (1.0 / 479001600 + a2 * (-1.0 / 87178291200 +
        a2 * (1.0 / 20922789888000))))))));
  } else {
    s = a * (1 + a2 * (T(-1.0 / 6) + a2 * (T(1.0 / 120) + a2 * (T(-1.0 / 5040) +
        a2 * T(1.0 / 362880)))));
    c = 1 + a2 * (T(-1.0 / 2) + a2 * (T(1.0 / 24) + a2 * (T(-1.0 / 720) +
        a2 * (T(1.0 / 40320) + a2 * T(-1.0 / 3628800)))));
  }
  // Rotate by quadrant * pi/2.
  const T sin_out = (quadrant & 1u) ? c : s;
  const T cos_out = (quadrant & 1u) ? -s : c;
  const T sign = (quadrant & 2u) ? T(-1) : T(1);
  return {sign * sin_out, sign * cos_out};
}

}  // namespace psfsim::cpu

#pragma once
// sin and cos of 2*pi*w for w in waves, written so that a loop over w vectorizes: no libm
// calls, no branches. The reduction is done in double, exactly for |w| < 2^51, so the
// polynomial only ever sees |angle| <= pi/4, where a short Taylor series is accurate to
// the last bit of T
// (float: sin to a^9, cos to a^8, truncation below 3e-8).
#include <cmath>

namespace psfsim::cpu {

template <typename T>
struct SinCos {
  T sin;
  T cos;
};

// Nearest integer, ties to even, for |v| < 2^51: the 1.5 * 2^52 trick. Plain double
// arithmetic, so it vectorizes on any SSE2 machine (no roundpd needed).
inline double round_nearest(double v) {
  constexpr double magic = 6755399441055744.0;
  return (v + magic) - magic;
}

// |w| < 2^29, where 4w fits the int that picks the quadrant; `Wide` takes any |w| < 2^51 at
// the cost of three more operations, dropping the whole waves first (exactly).
template <typename T, bool Wide = false>
inline SinCos<T> sincos_turns(double w) {
  const double f = Wide ? w - round_nearest(w) : w;
  // f = q/4 + r with |r| <= 1/8: the angle 2 pi r is within pi/4, and q mod 4 picks the
  // quadrant.
  const double q = round_nearest(4.0 * f);
  const int quadrant = static_cast<int>(q);

  const T a = static_cast<T>((f - 0.25 * q) * 6.283185307179586476925286766559);
  const T a2 = a * a;
  T s;
  T c;
  if constexpr (sizeof(T) == sizeof(double)) {
    s = a * (1 + a2 * (-1.0 / 6 +
                       a2 * (1.0 / 120 +
                             a2 * (-1.0 / 5040 +
                                   a2 * (1.0 / 362880 +
                                         a2 * (-1.0 / 39916800 +
                                               a2 * (1.0 / 6227020800 +
                                                     a2 * (-1.0 / 1307674368000 +
                                                           a2 * (1.0 / 355687428096000)))))))));
    c = 1 + a2 * (-1.0 / 2 +
                  a2 * (1.0 / 24 + a2 * (-1.0 / 720 +
                                         a2 * (1.0 / 40320 +
                                               a2 * (-1.0 / 3628800 +
                                                     a2 * (1.0 / 479001600 +
                                                           a2 * (-1.0 / 87178291200 +
                                                                 a2 * (1.0 / 20922789888000))))))));
  } else {
    s = a * (1 + a2 * (T(-1.0 / 6) +
                       a2 * (T(1.0 / 120) + a2 * (T(-1.0 / 5040) + a2 * T(1.0 / 362880)))));
    c = 1 + a2 * (T(-1.0 / 2) + a2 * (T(1.0 / 24) + a2 * (T(-1.0 / 720) + a2 * T(1.0 / 40320))));
  }
  // Rotate by quadrant * pi/2, arithmetically: selects would stop the loop vectorizing.
  const T swap = static_cast<T>(quadrant & 1);
  const T sign = T(1) - T(2) * static_cast<T>((quadrant >> 1) & 1);
  const T sin_out = s + swap * (c - s);
  const T cos_out = c - swap * (s + c);
  return {sign * sin_out, sign * cos_out};
}

}  // namespace psfsim::cpu

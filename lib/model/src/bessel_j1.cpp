#include "psfsim/bessel_j1.hpp"

#include <cmath>
#include <numbers>

namespace psfsim {
namespace {

// Below this, Miller's backward recurrence; from it on, Hankel's asymptotic expansion, whose
// terms then fall below 1e-17 within twenty terms.
constexpr double asymptotic_from = 25.0;

// J1(x) for 0 < x < asymptotic_from: J_n downward from an order where it is negligible,
// normalized by J0 + 2 (J2 + J4 + ...) = 1 (Miller's algorithm; stable downward).
double backward_recurrence(double x) {
  // J_n(x) ~ (e x / 2n)^n / sqrt(2 pi n): below 1e-18 of J1 from n = x + 40 on, for x < 25.
  const int start = 2 * (static_cast<int>(x / 2.0) + 20);
  double above = 0.0;   // J_{n+1}
  double here = 1e-30;  // J_n, unnormalized
  double even_sum = 0.0, j1 = 0.0;
  for (int n = start; n > 0; --n) {
    const double below = 2.0 * n / x * here - above;  // J_{n-1}
    above = here;
    here = below;
    const int order = n - 1;
    if (order == 1) j1 = here;
    if (order > 0 && order % 2 == 0) even_sum += 2.0 * here;
    if (std::abs(here) > 1e250) {  // rescale before the values overflow
      here *= 1e-250;
      above *= 1e-250;
      even_sum *= 1e-250;
      j1 *= 1e-250;
    }
  }
  return j1 / (here + even_sum);
}

// J1(x) ~ sqrt(2/(pi x)) (P cos chi - Q sin chi), chi = x - 3 pi/4, with P = a0 - a2 + ...,
// Q = a1 - a3 + ..., a_k = prod_{j<=k} (4 - (2j-1)^2) / (k! (8x)^k) (Abramowitz & Stegun
// 9.2.5, 9.2.9, 9.2.10).
double hankel_expansion(double x) {
  double term = 1.0, p = 1.0, q = 0.0;
  for (int k = 1; k < 60; ++k) {
    const double odd = 2.0 * k - 1.0;
    term *= (4.0 - odd * odd) / (8.0 * k * x);
    const double signed_term = (k / 2) % 2 == 0 ? term : -term;
    if (k % 2 == 0) p += signed_term;
    else q += signed_term;
    if (std::abs(term) < 1e-18) break;
  }
  // cos(x - 3 pi/4) and sin(x - 3 pi/4) without rounding 3 pi/4 into a large x.
  const double c = std::cos(x), s = std::sin(x);
  const double cos_chi = (s - c) * std::numbers::sqrt2 / 2.0;
  const double sin_chi = -(s + c) * std::numbers::sqrt2 / 2.0;
  return std::sqrt(2.0 / (std::numbers::pi * x)) * (p * cos_chi - q * sin_chi);
}

}  // namespace

double bessel_j1(double x) noexcept {
  const double ax = std::abs(x);
  double v = 0.0;
  if (ax == 0.0) v = 0.0;
  else if (ax < 1e-5) v = 0.5 * ax * (1.0 - ax * ax / 8.0);
  else if (ax < asymptotic_from) v = backward_recurrence(ax);
  else v = hankel_expansion(ax);
  return x < 0.0 ? -v : v;
}

}  // namespace psfsim

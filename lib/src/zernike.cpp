#include "psfsim/zernike.hpp"

#include <array>
#include <cmath>
#include <cstdlib>

namespace psfsim {

ZernikeOrder noll_to_nm(int j) {
  int n = 0;
  int rest = j - 1;
  while (rest > n) {
    ++n;
    rest -= n;
  }
  // Noll: even j take cos (m > 0), odd j take sin (m < 0); |m| has the parity of n.
  const int m_abs = (n % 2) + 2 * ((rest + ((n + 1) % 2)) / 2);
  const int m = (m_abs == 0 || j % 2 == 0) ? m_abs : -m_abs;
  return {n, m};
}

namespace {

// k! for k <= 170 (the largest finite in double), by exact products up to 22! and correctly
// rounded ones after; a table, since compiling a batch's phases asks for these per frame.
double factorial(int k) {
  static const std::array<double, 171> table = [] {
    std::array<double, 171> t{};
    t[0] = 1.0;
    for (int i = 1; i < 171; ++i) t[i] = t[i - 1] * i;
    return t;
  }();
  return k < 171 ? table[k] : HUGE_VAL;
}

}  // namespace

std::vector<double> radial_coefficients(int n, int m_abs) {
  std::vector<double> c;
  for (int k = 0; k <= (n - m_abs) / 2; ++k) {
    const double sign = (k % 2 == 0) ? 1.0 : -1.0;
    c.push_back(sign * factorial(n - k) /
                (factorial(k) * factorial((n + m_abs) / 2 - k) * factorial((n - m_abs) / 2 - k)));
  }
  return c;
}

double noll_normalization(int n, int m) {
  return m == 0 ? std::sqrt(n + 1.0) : std::sqrt(2.0 * (n + 1.0));
}

double zernike_polar(int j, double rho, double phi) {
  const auto [n, m] = noll_to_nm(j);
  const int m_abs = std::abs(m);
  const auto c = radial_coefficients(n, m_abs);
  double radial = 0.0;
  for (std::size_t k = 0; k < c.size(); ++k)
    radial += c[k] * std::pow(rho, n - 2 * static_cast<int>(k));
  const double angular = m > 0 ? std::cos(m_abs * phi) : (m < 0 ? std::sin(m_abs * phi) : 1.0);
  return noll_normalization(n, m) * radial * angular;
}

}  // namespace psfsim

#include "psfsim/zernike.hpp"

#include <array>
#include <cmath>
#include <cstdlib>

#include "psfsim/aberration.hpp"
#include "psfsim/zernike_convention.hpp"

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

int nm_to_noll(ZernikeOrder nm) {
  // Radial order n holds Noll's j = n(n+1)/2 + 1 ... (n+1)(n+2)/2: at most 25 to look through.
  for (int j = nm.n * (nm.n + 1) / 2 + 1; j <= (nm.n + 1) * (nm.n + 2) / 2; ++j) {
    const ZernikeOrder candidate = noll_to_nm(j);
    if (candidate.m == nm.m) return j;
  }
  return 0;  // not a Zernike term: |m| > n or n - |m| odd
}

ZernikeOrder ansi_to_nm(int j) {
  // ANSI Z80.28-2004 (Thibos et al., JOSA A 19, 2329, 2002): order n holds j = n(n+1)/2 ...
  // n(n+1)/2 + n, m rising from -n by 2; prysm's ansi_j_to_nm says the same.
  int n = 0;
  while ((n + 1) * (n + 2) / 2 <= j) ++n;
  return {n, 2 * j - n * (n + 2)};
}

ZernikeOrder fringe_to_nm(int j) {
  // J. C. Wyant and K. Creath, "Basic wavefront aberration theory for optical metrology",
  // Applied Optics and Optical Engineering XI (1992), table 2, as Zemax's Zernike Fringe lists
  // it: group k = (n+|m|)/2 holds j = k^2+1 ... (k+1)^2, |m| falling from k to 0, cos before
  // sin. Term 37 is the 12th-order spherical, outside the groups (prysm's fringe_to_nm goes on
  // with the groups and gives (6, 6) there, which Zemax does not).
  if (j == 37) return {12, 0};
  int k = 0;
  while ((k + 1) * (k + 1) < j) ++k;
  const int offset = j - (k * k + 1);  // 0 ... 2k
  const int m_abs = k - offset / 2;
  return {2 * k - m_abs, offset % 2 == 0 ? m_abs : -m_abs};
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

std::string_view to_string(ZernikeOrdering o) noexcept {
  switch (o) {
    case ZernikeOrdering::noll: return "noll";
    case ZernikeOrdering::ansi: return "ansi";
    case ZernikeOrdering::fringe: return "fringe";
  }
  return "?";
}

std::string_view to_string(ZernikeNorm n) noexcept {
  return n == ZernikeNorm::rms ? "rms" : "unit";
}

std::optional<ZernikeOrdering> parse_zernike_ordering(std::string_view s) noexcept {
  for (const auto o : {ZernikeOrdering::noll, ZernikeOrdering::ansi, ZernikeOrdering::fringe})
    if (s == to_string(o)) return o;
  return std::nullopt;
}

std::optional<ZernikeNorm> parse_zernike_norm(std::string_view s) noexcept {
  for (const auto n : {ZernikeNorm::rms, ZernikeNorm::unit})
    if (s == to_string(n)) return n;
  return std::nullopt;
}

ZernikeNorm default_norm(ZernikeOrdering o) noexcept {
  return o == ZernikeOrdering::fringe ? ZernikeNorm::unit : ZernikeNorm::rms;
}

std::string_view display_name(ZernikeOrdering o) noexcept {
  switch (o) {
    case ZernikeOrdering::noll: return "Noll";
    case ZernikeOrdering::ansi: return "ANSI";
    case ZernikeOrdering::fringe: return "Fringe";
  }
  return "?";
}

ZernikeIndexRange index_range(ZernikeOrdering o) noexcept {
  constexpr int n = max_zernike_radial_order;
  constexpr int terms = (n + 1) * (n + 2) / 2;  // every (n, m) up to radial order n
  switch (o) {
    case ZernikeOrdering::noll: return {1, terms};
    case ZernikeOrdering::ansi: return {0, terms - 1};
    case ZernikeOrdering::fringe: return {1, 37};
  }
  return {1, 1};
}

std::string index_problem(int index, ZernikeOrdering o) {
  const auto [first, last] = index_range(o);
  if (index >= first && index <= last) return {};
  std::string why = std::string(display_name(o)) + " indices run from " + std::to_string(first) +
                    " to " + std::to_string(last);
  if (o != ZernikeOrdering::fringe)
    why += " (radial order " + std::to_string(max_zernike_radial_order) + ")";
  return why;
}

NollMapping to_noll(int index, const ZernikeConvention& c) {
  ZernikeOrder nm{};
  switch (c.order) {
    case ZernikeOrdering::noll: nm = noll_to_nm(index); break;
    case ZernikeOrdering::ansi: nm = ansi_to_nm(index); break;
    case ZernikeOrdering::fringe: nm = fringe_to_nm(index); break;
  }
  const int j = c.order == ZernikeOrdering::noll ? index : nm_to_noll(nm);
  // All three orderings share Noll's orientation (m > 0 cos, m < 0 sin, no sign), so only the
  // normalization can differ: unit c * R * angular = (c / N) * (N * R * angular).
  return {j, c.norm == ZernikeNorm::rms ? 1.0 : noll_normalization(nm.n, nm.m)};
}

}  // namespace psfsim

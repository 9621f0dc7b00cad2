#include "psfsim/aberration_polynomial.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <utility>

#include "psfsim/zernike.hpp"

namespace psfsim {
namespace {

double binomial(int n, int k) {
  double r = 1.0;
  for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

// Adds scale * (x^2 + y^2)^p * x^a0 * y^b0 to the table.
void add_rho2_power(std::vector<double>& table, int stride, int p, int a0, int b0, double scale) {
  for (int i = 0; i <= p; ++i)
    table[(a0 + 2 * i) * stride + (b0 + 2 * (p - i))] += scale * binomial(p, i);
}

// Adds scale * (x^2+y^2)^p * Re((x+iy)^m) (or Im when `imaginary`) to the table.
void add_harmonic(std::vector<double>& table, int stride, int p, int m, bool imaginary,
                  double scale) {
  // (x + iy)^m = sum_k C(m,k) x^(m-k) (iy)^k; i^k is real for even k, imaginary for odd k.
  for (int k = imaginary ? 1 : 0; k <= m; k += 2) {
    const double sign = ((k / 2) % 2 == 0) ? 1.0 : -1.0;
    add_rho2_power(table, stride, p, m - k, k, scale * sign * binomial(m, k));
  }
}

}  // namespace

// A batch of a million random frames compiles the same dozen terms a million times: each
// thread keeps the tables it made, so that a frame costs a scaled sum of tables.
const std::vector<double>& zernike_table(int j, int stride) {
  thread_local std::map<std::pair<int, int>, std::vector<double>> tables;
  auto [it, made] = tables.try_emplace({j, stride});
  if (made) {
    std::vector<double>& table = it->second;
    table.assign(static_cast<std::size_t>(stride) * stride, 0.0);
    const auto [n, m] = noll_to_nm(j);
    const int m_abs = std::abs(m);
    const auto radial = radial_coefficients(n, m_abs);
    const double scale = noll_normalization(n, m);
    // R_n^m(rho) cos(m phi) = sum_k r_k rho^(n-2k-m) Re((x+iy)^m), and n-2k-m is even.
    for (std::size_t k = 0; k < radial.size(); ++k) {
      const int p = (n - 2 * static_cast<int>(k) - m_abs) / 2;
      add_harmonic(table, stride, p, m_abs, m < 0, scale * radial[k]);
    }
  }
  return it->second;
}

double zernike_rounding(int j) {
  // Indexed by j, negative until worked out: a batch of 10^7 frames asks 10^8 times.
  thread_local std::vector<double> known;
  if (j < 1) throw std::invalid_argument("zernike_rounding: Noll j must be >= 1");
  const auto index = static_cast<std::size_t>(j);
  if (index >= known.size()) known.resize(index + 1, -1.0);
  double& value = known[index];
  if (value >= 0.0) return value;
  const int stride = noll_to_nm(j).n + 1;
  const std::vector<double>& table = zernike_table(j, stride);
  // sum |c_ab| |x|^a |y|^b grows with rho in every term: its largest value is on the rim.
  constexpr int steps = 256;
  double largest = 0.0;
  std::vector<double> cos_powers(stride), sin_powers(stride);
  for (int k = 0; k <= steps; ++k) {
    const double angle = 0.5 * M_PI * k / steps;
    const double c = std::cos(angle), s = std::sin(angle);
    cos_powers[0] = sin_powers[0] = 1.0;
    for (int p = 1; p < stride; ++p) {
      cos_powers[p] = cos_powers[p - 1] * c;
      sin_powers[p] = sin_powers[p - 1] * s;
    }
    double sum = 0.0;
    for (int a = 0; a < stride; ++a)
      for (int b = 0; b < stride; ++b)
        sum += std::fabs(table[a * stride + b]) * cos_powers[a] * sin_powers[b];
    largest = std::max(largest, sum);
  }
  value = 0x1p-52 * largest;
  return value;
}

double phase_rounding(const Aberration& terms) {
  double total = 0.0;
  // A rotated term's coefficients sum to at most (|cos| + |sin|)^m times |W|. Every held
  // frame is checked, so the unrotated terms of the options skip the trigonometry.
  for (const auto& t : terms.seidel)
    total += 0x1p-52 * std::fabs(t.waves) *
             (t.azimuth == 0.0
                  ? 1.0
                  : std::pow(std::fabs(std::cos(t.azimuth)) + std::fabs(std::sin(t.azimuth)), t.m));
  for (const auto& t : terms.zernike) total += zernike_rounding(t.j) * std::fabs(t.waves);
  return total;
}

bool AberrationPolynomial::uses_rho() const noexcept {
  return std::any_of(with_rho.begin(), with_rho.end(), [](double v) { return v != 0.0; });
}

double AberrationPolynomial::evaluate(double x, double y) const {
  const int s = stride();
  double plain_sum = 0.0;
  double rho_sum = 0.0;
  for (int a = 0; a < s; ++a)
    for (int b = 0; b < s; ++b) {
      const double monomial = std::pow(x, a) * std::pow(y, b);
      plain_sum += plain[a * s + b] * monomial;
      rho_sum += with_rho[a * s + b] * monomial;
    }
  return plain_sum + std::sqrt(x * x + y * y) * rho_sum;
}

int required_degree(const Aberration& terms) {
  int degree = 0;
  for (const auto& t : terms.seidel) degree = std::max(degree, t.l);
  for (const auto& t : terms.zernike) degree = std::max(degree, noll_to_nm(t.j).n);
  return degree;
}

void add_term(AberrationPolynomial& poly, const SeidelTerm& t) {
  const int s = poly.stride();
  // rho^l cos^m(phi - a) = rho^(l-m) (x cos a + y sin a)^m; an odd l-m leaves one factor of
  // rho. Every frame is compiled on the host, so an unrotated term (all that the options give)
  // adds its one monomial without the trigonometry and powers.
  const int rest = t.l - t.m;
  auto& table = (rest % 2 == 0) ? poly.plain : poly.with_rho;
  if (t.azimuth == 0.0) {
    add_rho2_power(table, s, rest / 2, t.m, 0, t.waves);
    return;
  }
  const double c = std::cos(t.azimuth), sn = std::sin(t.azimuth);
  for (int k = 0; k <= t.m; ++k)
    add_rho2_power(table, s, rest / 2, t.m - k, k,
                   t.waves * binomial(t.m, k) * std::pow(c, t.m - k) * std::pow(sn, k));
}

void add_term(AberrationPolynomial& poly, const std::vector<double>& zernike, double waves) {
  for (std::size_t i = 0; i < zernike.size(); ++i) poly.plain[i] += waves * zernike[i];
}

void clear_tables(AberrationPolynomial& poly, int degree) {
  poly.degree = degree;
  const auto cells = static_cast<std::size_t>(poly.stride()) * poly.stride();
  poly.plain.assign(cells, 0.0);  // within the capacity a reused polynomial already has
  poly.with_rho.assign(cells, 0.0);
}

AberrationPolynomial compile_phase(const Aberration& terms) {
  return compile_phase(terms, required_degree(terms));
}

AberrationPolynomial compile_phase(const Aberration& terms, int degree) {
  AberrationPolynomial poly;
  clear_tables(poly, std::max(degree, required_degree(terms)));
  const int s = poly.stride();
  for (const auto& t : terms.seidel) add_term(poly, t);
  for (const auto& t : terms.zernike) add_term(poly, zernike_table(t.j, s), t.waves);
  return poly;
}

}  // namespace psfsim

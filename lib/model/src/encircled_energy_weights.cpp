#include "psfsim/encircled_energy_weights.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>

#include "mixed_radix_fft.hpp"
#include "psfsim/bessel_j1.hpp"
#include "psfsim/contiguous_parallel.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {
namespace {

constexpr double pi = std::numbers::pi;

bool seven_smooth(int n) noexcept {
  if (n < 1) return false;
  for (const int p : {2, 3, 5, 7})
    while (n % p == 0) n /= p;
  return n == 1;
}

// Gauss-Legendre nodes and weights on [-1, 1] (Newton's iteration on P_n from the usual
// first guesses; converges to rounding in a few steps).
struct GaussLegendre {
  std::vector<double> nodes, weights;
  explicit GaussLegendre(int n) : nodes(static_cast<std::size_t>(n)), weights(nodes.size()) {
    for (int i = 0; i < n; ++i) {
      double x = std::cos(pi * (i + 0.75) / (n + 0.5));
      double derivative = 1.0;
      for (int iteration = 0; iteration < 100; ++iteration) {
        double p0 = 1.0, p1 = x;
        for (int k = 2; k <= n; ++k) {
          const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
          p0 = p1;
          p1 = p2;
        }
        derivative = n * (x * p1 - p0) / (x * x - 1.0);
        const double dx = p1 / derivative;
        x -= dx;
        if (std::abs(dx) < 1e-16) break;
      }
      nodes[static_cast<std::size_t>(i)] = x;
      weights[static_cast<std::size_t>(i)] = 2.0 / ((1.0 - x * x) * derivative * derivative);
    }
  }
};

// sin(2 pi a m) / (2 pi m): the integral of cos(2 pi t m) over t in [0, a] (a at m = 0).
double cosine_integral(double a, int m) {
  return m == 0 ? a : std::sin(2.0 * pi * a * m) / (2.0 * pi * m);
}

// rho <= 1/2: the disk lies in the cell; its transform is rho J1(2 pi rho |m|) / |m|.
void disk_kernel(int n, double rho, std::vector<double>& k) {
  k[0] = pi * rho * rho;
  for (int my = 0; my < n; ++my)
    for (int mx = my; mx < n; ++mx) {
      if (mx == 0) continue;
      const double d = std::sqrt(static_cast<double>(mx) * mx + static_cast<double>(my) * my);
      const double v = rho * bessel_j1(2.0 * pi * rho * d) / d;
      k[static_cast<std::size_t>(my) * n + mx] = v;
      k[static_cast<std::size_t>(mx) * n + my] = v;
    }
}

// 1/2 < rho < 1/sqrt(2): the disk within the cell. On each axis the region is even, so
// K(m) = 4 int_0^{1/2} cos(2 pi t m_y) S(a(t), m_x) dt with a(t) = min(sqrt(rho^2 - t^2), 1/2)
// and S(a, m) = cosine_integral(a, m). Up to t_k = sqrt(rho^2 - 1/4), a = 1/2 and S is
// 1/2 at m_x = 0, else 0: an integral in closed form. From t_k to 1/2, with t = rho sin(phi),
// a = rho cos(phi), the integrand is smooth in phi: Gauss-Legendre panels of at most one
// oscillation each, which sum to rounding. It is a product of a matrix over (m_y, node) and
// one over (node, m_x).
void clipped_disk_kernel(int n, double rho, std::vector<double>& k) {
  const double tk = std::sqrt(rho * rho - 0.25);
  for (int my = 0; my < n; ++my)
    k[static_cast<std::size_t>(my) * n] += 2.0 * cosine_integral(tk, my);
  const double phi0 = std::asin(tk / rho);
  const double phi1 = std::asin(0.5 / rho);
  const double oscillations = rho * (n - 1) * std::numbers::sqrt2 * (phi1 - phi0);
  const int panels = static_cast<int>(std::ceil(oscillations)) + 1;
  static const GaussLegendre rule(16);
  const int per_panel = static_cast<int>(rule.nodes.size());
  const std::size_t nodes = static_cast<std::size_t>(panels) * per_panel;
  std::vector<double> t(nodes), along_x(nodes * n);
  for (int p = 0; p < panels; ++p) {
    const double lo = phi0 + (phi1 - phi0) * p / panels;
    const double hi = phi0 + (phi1 - phi0) * (p + 1) / panels;
    for (int q = 0; q < per_panel; ++q) {
      const std::size_t i = static_cast<std::size_t>(p) * per_panel + q;
      const double phi = 0.5 * (lo + hi) + 0.5 * (hi - lo) * rule.nodes[q];
      const double weight = 0.5 * (hi - lo) * rule.weights[q];
      t[i] = rho * std::sin(phi);
      const double a = rho * std::cos(phi);
      for (int mx = 0; mx < n; ++mx)
        along_x[i * n + mx] = 4.0 * weight * a * cosine_integral(a, mx);  // dt = a dphi
    }
  }
  std::vector<double> along_y(nodes);
  for (int my = 0; my < n; ++my) {
    for (std::size_t i = 0; i < nodes; ++i) along_y[i] = std::cos(2.0 * pi * t[i] * my);
    double* row = k.data() + static_cast<std::size_t>(my) * n;
    for (std::size_t i = 0; i < nodes; ++i) {
      const double c = along_y[i];
      const double* x = along_x.data() + i * n;
      for (int mx = 0; mx < n; ++mx) row[mx] += c * x[mx];
    }
  }
}

// out_a[f] = sum_{|m| < n} a[|m|] cos(2 pi f m / L) for f in [0, half), and the same of b:
// the DFT of the even extension of each (real, as the sequence is even), both at once as the
// real and imaginary parts of one complex transform.
void even_cosine_sums(const double* a, const double* b, std::size_t in_stride, int n,
                      const detail::MixedRadixFft& fft, std::vector<std::complex<double>>& z,
                      std::vector<std::complex<double>>& spectrum, double* out_a, double* out_b,
                      std::size_t out_stride, int half) {
  const int length = fft.length();
  std::fill(z.begin(), z.end(), std::complex<double>{});
  for (int m = 0; m < n; ++m) {
    const std::complex<double> v{a[m * in_stride], b != nullptr ? b[m * in_stride] : 0.0};
    z[static_cast<std::size_t>(m)] = v;
    if (m > 0) z[static_cast<std::size_t>(length - m)] = v;
  }
  fft.forward(z.data(), spectrum.data());
  for (int f = 0; f < half; ++f) {
    out_a[f * out_stride] = spectrum[static_cast<std::size_t>(f)].real();
    if (out_b != nullptr) out_b[f * out_stride] = spectrum[static_cast<std::size_t>(f)].imag();
  }
}

// L^2 W on the quadrant: the 2D cosine sums of the kernel's quadrant, rows then columns.
std::vector<double> weight_table(const std::vector<double>& kernel, int n, int half,
                                 const detail::MixedRadixFft& fft) {
  const std::size_t length = static_cast<std::size_t>(fft.length());
  std::vector<std::complex<double>> z(length), spectrum(length);
  std::vector<double> rows(static_cast<std::size_t>(n) * half);  // [m_y][f_x]
  for (int my = 0; my < n; my += 2) {
    const bool pair = my + 1 < n;
    const double* a = kernel.data() + static_cast<std::size_t>(my) * n;
    even_cosine_sums(a, pair ? a + n : nullptr, 1, n, fft, z, spectrum,
                     rows.data() + static_cast<std::size_t>(my) * half,
                     pair ? rows.data() + static_cast<std::size_t>(my + 1) * half : nullptr, 1,
                     half);
  }
  std::vector<double> table(static_cast<std::size_t>(half) * half);  // [f_y][f_x]
  for (int fx = 0; fx < half; fx += 2) {
    const bool pair = fx + 1 < half;
    even_cosine_sums(rows.data() + fx, pair ? rows.data() + fx + 1 : nullptr,
                     static_cast<std::size_t>(half), n, fft, z, spectrum, table.data() + fx,
                     pair ? table.data() + fx + 1 : nullptr, static_cast<std::size_t>(half), half);
  }
  return table;
}

}  // namespace

int encircled_energy_period(int samples) noexcept {
  int l = std::max(2, 2 * samples - 1);
  while (l % 2 != 0 || !seven_smooth(l)) ++l;
  return l;
}

int encircled_energy_stride(int samples, int padded) noexcept {
  const int least = 2 * samples - 1;
  for (int d = padded / std::max(1, least); d >= 1; --d)
    if (padded % d == 0 && padded / d >= least && seven_smooth(padded / d)) return d;
  return 0;
}

double pupil_spacing(const SampledPupil& facts) noexcept {
  if (facts.coordinates.size() >= 2) return 0.5 * (facts.coordinates[1] - facts.coordinates[0]);
  return 1.0;  // one sample: any spacing; the lattice is its origin alone
}

std::vector<double> encircled_energy_kernel(int samples, double rho) {
  std::vector<double> k(static_cast<std::size_t>(samples) * samples, 0.0);
  if (rho <= 0.5) disk_kernel(samples, rho, k);
  else if (rho * rho >= 0.5) k[0] = 1.0;  // the disk holds the whole cell
  else clipped_disk_kernel(samples, rho, k);
  return k;
}

EncircledEnergyWeights encircled_energy_weights(const PsfPlan& plan, int period, int threads) {
  const SampledPupil& facts = plan.sampled_pupil();
  const std::vector<double>& radii = plan.metrics.ee_radii;
  EncircledEnergyWeights w;
  w.samples = plan.samples;
  w.period = period;
  w.half = period / 2 + 1;
  w.channels = static_cast<int>(plan.channels.size());
  w.radii = static_cast<int>(radii.size());
  const std::size_t count = static_cast<std::size_t>(w.channels) * radii.size();
  const double bytes = static_cast<double>(count) * w.table_size() * sizeof(double);
  if (bytes > static_cast<double>(max_encircled_energy_table_bytes))
    throw InputError(flag(Option::metrics) + " ee: the exact encircled energy takes one " +
                     std::to_string(w.half) + " x " + std::to_string(w.half) +
                     " table per wavelength and radius (N = " + std::to_string(plan.samples) +
                     "), " + std::to_string(count) + " of them here, " +
                     std::to_string(static_cast<long long>(bytes / (1 << 20))) +
                     " MiB, more than " + std::to_string(max_encircled_energy_table_bytes >> 20) +
                     " MiB; give fewer wavelengths or " + flag(Option::ee_radii));

  double weight_sum = 0.0;
  for (const SpectralChannel& c : plan.channels)
    weight_sum += c.weight / (c.phase_scale * c.phase_scale);
  const double grid = static_cast<double>(period) * period;
  for (const SpectralChannel& c : plan.channels)
    w.scales.push_back(c.weight / (c.phase_scale * c.phase_scale) /
                       (grid * facts.energy_sum * weight_sum));

  const double spacing = pupil_spacing(facts);
  w.tables.resize(count * w.table_size());
  const detail::MixedRadixFft fft(period);
  for_contiguous_runs(
      count,
      [&](std::size_t first, std::size_t last) {
        for (std::size_t i = first; i < last; ++i) {
          const SpectralChannel& c = plan.channels[i / radii.size()];
          const double rho = radii[i % radii.size()] * c.phase_scale * spacing;
          const std::vector<double> table =
              weight_table(encircled_energy_kernel(plan.samples, rho), plan.samples, w.half, fft);
          std::copy(table.begin(), table.end(), w.tables.begin() + i * w.table_size());
        }
      },
      static_cast<std::size_t>(std::max(0, threads)));
  return w;
}

}  // namespace psfsim

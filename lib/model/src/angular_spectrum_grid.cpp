#include "psfsim/angular_spectrum_grid.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/units.hpp"

namespace psfsim {
namespace {

bool positive_length(double v) { return std::isfinite(v) && v > 0.0; }

// "the angular-spectrum propagator (N = 64 in M = 128 of 10um at 500nm)": the grid, for
// messages.
std::string grid_text(const AngularSpectrumGrid& g) {
  return "the angular-spectrum propagator (N = " + std::to_string(g.samples) +
         " in M = " + std::to_string(g.padded) + ", pitch " + format_length(g.pitch_m) +
         ", wavelength " + format_length(g.wavelength_m) + ")";
}

// The largest lambda |f_x| / sqrt(1 - lambda^2 (f_x^2 + f_y^2)) over the grid's propagating
// frequencies: for each f_x with the largest |f_y| that still propagates, since the tangent
// grows with both.
double steepest_tangent(const AngularSpectrumGrid& g) {
  const int m = g.padded;
  std::vector<double> magnitudes;  // the distinct |f| of one axis, ascending
  for (int k = 0; k < m; ++k) magnitudes.push_back(std::fabs(grid_frequency(k, m, g.pitch_m)));
  std::sort(magnitudes.begin(), magnitudes.end());
  magnitudes.erase(std::unique(magnitudes.begin(), magnitudes.end()), magnitudes.end());
  const double inv2 = 1.0 / (g.wavelength_m * g.wavelength_m);
  double steepest = 0.0;
  // As f_x grows the largest propagating |f_y| shrinks: one pass from each end.
  std::size_t top = magnitudes.size();
  for (const double fx : magnitudes) {
    while (top > 0 && !(fx * fx + magnitudes[top - 1] * magnitudes[top - 1] < inv2)) --top;
    if (top == 0) break;  // nothing at this f_x propagates
    const double fy = magnitudes[top - 1];
    const double cosine = std::sqrt(1.0 - g.wavelength_m * g.wavelength_m * (fx * fx + fy * fy));
    steepest = std::max(steepest, g.wavelength_m * fx / cosine);
  }
  return steepest;
}

}  // namespace

double grid_frequency(int k, int padded, double pitch_m) noexcept {
  const int signed_k = k < (padded + 1) / 2 ? k : k - padded;
  return signed_k / (padded * pitch_m);
}

double angular_spectrum_reach(const AngularSpectrumGrid& g) {
  const double room = std::min(g.padded / 2.0, static_cast<double>(g.padded - g.samples));
  const double tangent = steepest_tangent(g);
  if (tangent == 0.0) return HUGE_VAL;  // only f = 0: every distance is a phase
  return room * g.pitch_m / tangent;
}

void check_angular_spectrum(const AngularSpectrumGrid& g) {
  if (g.samples < 1 || g.padded < g.samples)
    throw InputError("the angular-spectrum propagator: a field of " + std::to_string(g.samples) +
                     " samples padded to " + std::to_string(g.padded) +
                     " (it needs N >= 1 and M >= N)");
  if (!positive_length(g.pitch_m) || !positive_length(g.wavelength_m))
    throw InputError("the angular-spectrum propagator: the pitch " + format_number(g.pitch_m) +
                     " m and the wavelength " + format_number(g.wavelength_m) +
                     " m must be positive lengths");
  if (!std::isfinite(g.distance_m))
    throw InputError(grid_text(g) + ": the distance " + format_number(g.distance_m) +
                     " m is not a finite length");
  if (g.distance_m == 0.0) return;  // the identity
  const double reach = angular_spectrum_reach(g);
  if (std::fabs(g.distance_m) <= reach) return;
  throw InputError(
      grid_text(g) + ": the distance " + format_length(g.distance_m) + " is beyond the " +
      (reach > 0.0 ? format_length(reach) : std::string("0m")) +
      " it propagates over: the steepest plane wave of the grid moves sideways by more than " +
      (g.padded / 2.0 <= g.padded - g.samples
           ? "M/2 samples (its transfer function's phase steps more than pi between samples)"
           : "M - N samples (it would wrap around the padding into the field)") +
      "; pad more (a larger M) or use a coarser pitch");
}

std::vector<std::complex<double>> angular_spectrum_transfer(const AngularSpectrumGrid& g,
                                                            double scale) {
  const int m = g.padded;
  const double inv = 1.0 / g.wavelength_m;
  const double z = g.distance_m;
  // The phase at f = 0, z/lambda turns, less its whole turns (exact in double).
  const double axial = z * inv;
  const double axial_fraction = axial - std::round(axial);
  // H depends on |f_x| and |f_y| alone: one quadrant of |k| from 0 to M/2, then mirrored.
  const int half = m / 2 + 1;
  std::vector<double> f(half);
  for (int k = 0; k < half; ++k) f[k] = k / (m * g.pitch_m);
  std::vector<std::complex<double>> quadrant(static_cast<std::size_t>(half) * half);
  for (int ky = 0; ky < half; ++ky)
    for (int kx = 0; kx < half; ++kx) {
      const double f2 = f[kx] * f[kx] + f[ky] * f[ky];
      const double root2 = inv * inv - f2;
      if (!(root2 > 0.0)) continue;  // evanescent: dropped
      double turns = axial_fraction - z * f2 / (inv + std::sqrt(root2));
      turns -= std::round(turns);
      const double angle = 2.0 * std::numbers::pi * turns;
      quadrant[static_cast<std::size_t>(ky) * half + kx] = {scale * std::cos(angle),
                                                            scale * std::sin(angle)};
    }
  const auto magnitude = [m](int k) { return k < (m + 1) / 2 ? k : m - k; };
  std::vector<std::complex<double>> h(static_cast<std::size_t>(m) * m);
  for (int ky = 0; ky < m; ++ky) {
    const std::complex<double>* row =
        quadrant.data() + static_cast<std::size_t>(magnitude(ky)) * half;
    for (int kx = 0; kx < m; ++kx) h[static_cast<std::size_t>(ky) * m + kx] = row[magnitude(kx)];
  }
  return h;
}

}  // namespace psfsim

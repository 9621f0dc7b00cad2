#include "psfsim/aperture_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"
#include "psfsim/pupil_math.hpp"

namespace psfsim {
namespace {

constexpr double sqrt3 = std::numbers::sqrt3;

// cos and sin of an angle in degrees, exact at multiples of 90 degrees so that a strut along
// an axis has a boundary that is the same straight line in every row.
std::array<double, 2> cos_sin_degrees(double degrees) {
  double d = std::fmod(degrees, 360.0);
  if (d < 0.0) d += 360.0;
  if (d == 0.0) return {1.0, 0.0};
  if (d == 90.0) return {0.0, 1.0};
  if (d == 180.0) return {-1.0, 0.0};
  if (d == 270.0) return {0.0, -1.0};
  const double radians = d * (std::numbers::pi / 180.0);
  return {std::cos(radians), std::sin(radians)};
}

// Lattice cell (q, r) in axial coordinates: centre p (q + r/2, r sqrt(3)/2).
std::array<double, 2> cell_centre(double pitch, int q, int r) {
  return {pitch * (q + 0.5 * r), pitch * (0.5 * sqrt3 * r)};
}

int hex_distance(int q, int r) { return std::max({std::abs(q), std::abs(r), std::abs(q + r)}); }

bool is_segment(const HexLayout& h, int q, int r) {
  const int d = hex_distance(q, r);
  return d <= h.rings && (h.center || d > 0);
}

// The farthest segment vertex from the axis for a pitch, in unit-circle units.
double outermost_vertex(const std::vector<std::array<double, 2>>& unit_centres, double pitch,
                        double gap) {
  const double circumradius = (pitch - gap) / sqrt3;
  double far = 0.0;
  for (const auto& c : unit_centres)
    for (int k = 0; k < 6; ++k) {
      const double angle = (30.0 + 60.0 * k) * (std::numbers::pi / 180.0);
      far = std::max(far, std::hypot(pitch * c[0] + circumradius * std::cos(angle),
                                     pitch * c[1] + circumradius * std::sin(angle)));
    }
  return far;
}

}  // namespace

HexLayout hex_layout(const HexSegments& h) {
  HexLayout layout;
  layout.rings = h.rings;
  layout.center = h.center;
  std::vector<std::array<double, 2>> unit;
  for (int r = -h.rings; r <= h.rings; ++r)
    for (int q = -h.rings; q <= h.rings; ++q)
      if (is_segment(layout, q, r)) unit.push_back(cell_centre(1.0, q, r));
  const std::string named = flag(Option::hex_segments) + " " + to_string(h);
  if (unit.empty()) throw InputError(named + ": no segment left");
  const double gap = 2.0 * h.gap;  // D spans 2 units
  // The pitch whose outermost vertices touch the unit circle, from below: the vertex
  // distance grows with the pitch, and bisection keeps the last pitch still inside.
  double lo = gap;
  double hi = sqrt3 + gap;
  if (!(outermost_vertex(unit, lo, gap) < 1.0))
    throw InputError(named + ": the gaps alone reach the rim");
  while (outermost_vertex(unit, hi, gap) < 1.0) hi *= 2.0;
  for (int i = 0; i < 200 && lo < hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (outermost_vertex(unit, mid, gap) <= 1.0 ? lo : hi) = mid;
  }
  layout.pitch = lo;
  layout.flat = lo - gap;
  for (const auto& c : unit) layout.centres.push_back({lo * c[0], lo * c[1]});
  return layout;
}

bool inside_hexagon(double dx, double dy, double flat) {
  const double half = 0.5 * flat;
  const double ax = std::fabs(dx);
  return ax <= half && 0.5 * ax + 0.5 * sqrt3 * std::fabs(dy) <= half;
}

bool inside_hex_segments(const HexLayout& h, double x, double y) {
  if (h.pitch <= 0.0) return false;
  // The nearest lattice cell (cube rounding), then its neighbours for samples that rounding
  // puts on the wrong side of a boundary shared by two segments.
  const double rf = y / (0.5 * sqrt3 * h.pitch);
  const double qf = x / h.pitch - 0.5 * rf;
  const double sf = -qf - rf;
  double q = std::round(qf), r = std::round(rf);
  const double s = std::round(sf);
  const double dq = std::fabs(q - qf), dr = std::fabs(r - rf), ds = std::fabs(s - sf);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  static constexpr int steps[7][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}};
  for (const auto& step : steps) {
    const int cq = static_cast<int>(q) + step[0];
    const int cr = static_cast<int>(r) + step[1];
    if (!is_segment(h, cq, cr)) continue;
    const auto c = cell_centre(h.pitch, cq, cr);
    if (inside_hexagon(x - c[0], y - c[1], h.flat)) return true;
  }
  return false;
}

SpiderLayout spider_layout(const Spiders& s) {
  SpiderLayout layout;
  layout.half_width = s.width;  // a fraction of D = 2 units
  for (int k = 0; k < s.count; ++k)
    layout.directions.push_back(cos_sin_degrees(s.angle_deg + 360.0 * k / s.count));
  return layout;
}

bool blocked_by_spiders(const SpiderLayout& s, double x, double y) {
  for (const auto& [c, sn] : s.directions) {
    const double along = x * c + y * sn;
    const double distance = along > 0.0 ? std::fabs(y * c - x * sn) : pupil::radius(x, y);
    if (distance < s.half_width) return true;
  }
  return false;
}

std::vector<double> aperture_mask(const std::vector<double>& coordinates, double obscuration,
                                  const ApertureSpec& a) {
  const std::size_t n = coordinates.size();
  std::vector<double> mask(n * n, 0.0);
  const HexLayout hex = a.hex_segments ? hex_layout(*a.hex_segments) : HexLayout{};
  const SpiderLayout spiders = a.spiders ? spider_layout(*a.spiders) : SpiderLayout{};
  // Flat-topped segments are the pointy-topped pattern turned by 90 degrees, which its mirror
  // symmetry about the y axis makes the pattern read with x and y exchanged.
  const bool flat_top = a.hex_segments && a.hex_segments->flat_top;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) {
      const double x = coordinates[c], y = coordinates[r];
      const double rho = pupil::radius(x, y);
      const bool in_segments = a.hex_segments && (flat_top ? inside_hex_segments(hex, y, x)
                                                           : inside_hex_segments(hex, x, y));
      bool clear = a.hex_segments ? in_segments && rho >= obscuration
                                  : pupil::inside_aperture(rho, obscuration);
      if (clear && a.spiders) clear = !blocked_by_spiders(spiders, x, y);
      mask[r * n + c] = clear ? 1.0 : 0.0;
    }
  return mask;
}

}  // namespace psfsim

#pragma once
// The geometry of docs/spec.md §7's apertures in pupil coordinates (the rim is the unit circle, so
// D
// spans 2 units): the one place a sample is classified, evaluated once per plan on the host
// into the map every backend multiplies by. A sample on a boundary is clear, as the circle's
// rule has it (rho = 1 and rho = obscuration are inside): segments are closed hexagons, and a
// strut blocks only the samples strictly closer than half its width to its centre line.
#include <array>
#include <vector>

#include "psfsim/aperture_spec.hpp"

namespace psfsim {

// Segments are "pointy-top" hexagons (two sides parallel to y, a vertex on +y) on a lattice
// whose neighbours lie at 0, 60, ..., 300 degrees from +x.
struct HexLayout {
  double pitch = 0.0;  // centre-to-centre distance, the flat-to-flat of a lattice cell
  double flat = 0.0;   // flat-to-flat of a segment: pitch minus the gap
  int rings = 0;
  bool center = true;
  std::vector<std::array<double, 2>> centres;  // one per segment
};

// Throws InputError naming --hex-segments when the gap leaves no room for the segments.
[[nodiscard]] HexLayout hex_layout(const HexSegments& h);
// Inside or on the boundary of the segment of flat-to-flat `flat` centred at the origin.
[[nodiscard]] bool inside_hexagon(double dx, double dy, double flat);
[[nodiscard]] bool inside_hex_segments(const HexLayout& layout, double x, double y);
// The struts' directions and half width, in pupil units.
struct SpiderLayout {
  double half_width = 0.0;                        // WIDTH (D = 2 units)
  std::vector<std::array<double, 2>> directions;  // (cos, sin) of each strut's angle
};
[[nodiscard]] SpiderLayout spider_layout(const Spiders& s);
// Strictly closer than half a strut's width to the centre line of one of the struts: the
// half-line from the optical axis outwards (so the struts meet in a hub of that radius).
[[nodiscard]] bool blocked_by_spiders(const SpiderLayout& s, double x, double y);

// A at the samples (x_c, y_r), row-major N x N, 1 or 0: the circle of radius 1 (or the
// hexagons, which replace it), minus rho < obscuration, minus the spiders.
[[nodiscard]] std::vector<double> aperture_mask(const std::vector<double>& coordinates,
                                                double obscuration, const ApertureSpec& a);

}  // namespace psfsim

#include "psfsim/field_interpolation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"

namespace psfsim {
namespace {

double cross(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }

// Distinct values, ascending; values within `tol` of the previous one are the same.
std::vector<double> distinct(std::vector<double> v, double tol) {
  std::sort(v.begin(), v.end());
  std::vector<double> out;
  for (const double x : v)
    if (out.empty() || x - out.back() > tol) out.push_back(x);
  return out;
}

std::size_t index_of(const std::vector<double>& values, double x, double tol) {
  const auto it = std::lower_bound(values.begin(), values.end(), x - tol);
  return static_cast<std::size_t>(it - values.begin());
}

// The weights of the natural cubic spline through `knots` at x, one per knot: the spline of
// each unit vector, evaluated there. Two knots give the straight line, one gives 1.
std::vector<double> spline_weights(const std::vector<double>& t, double x) {
  const std::size_t n = t.size();
  std::vector<double> w(n, 0.0);
  if (n == 1) {
    w[0] = 1.0;
    return w;
  }
  std::size_t i = 0;  // the interval [t_i, t_i+1] holding x
  while (i + 2 < n && x > t[i + 1]) ++i;
  const double h = t[i + 1] - t[i];
  const double a = (t[i + 1] - x) / h, b = (x - t[i]) / h;
  std::vector<double> second(n), diag(n), rhs(n), y(n);
  for (std::size_t k = 0; k < n; ++k) {
    std::fill(y.begin(), y.end(), 0.0);
    y[k] = 1.0;
    std::fill(second.begin(), second.end(), 0.0);
    // Interior equations h_{j-1} M_{j-1} + 2(h_{j-1} + h_j) M_j + h_j M_{j+1} = r_j, with
    // M_0 = M_{n-1} = 0, by the Thomas algorithm.
    for (std::size_t j = 1; j + 1 < n; ++j) {
      const double hl = t[j] - t[j - 1], hr = t[j + 1] - t[j];
      diag[j] = 2.0 * (hl + hr);
      rhs[j] = 6.0 * ((y[j + 1] - y[j]) / hr - (y[j] - y[j - 1]) / hl);
      if (j > 1) {
        const double f = hl / diag[j - 1];
        diag[j] -= f * hl;
        rhs[j] -= f * rhs[j - 1];
      }
    }
    for (std::size_t j = n - 1; j-- > 1;)
      second[j] = (rhs[j] - (t[j + 1] - t[j]) * second[j + 1]) / diag[j];
    w[k] = a * y[i] + b * y[i + 1] +
           ((a * a * a - a) * second[i] + (b * b * b - b) * second[i + 1]) * h * h / 6.0;
  }
  return w;
}

}  // namespace

std::string to_string(FieldInterpolation method) {
  return method == FieldInterpolation::cubic_grid ? "cubic-grid" : "linear-triangulation";
}

FieldInterpolator::FieldInterpolator(std::vector<FieldPoint> nodes, std::string source)
    : nodes_(std::move(nodes)), source_(std::move(source)) {
  if (nodes_.empty()) throw InputError(source_ + ": the table has no field points");
  double lo_x = nodes_[0].x, hi_x = lo_x, lo_y = nodes_[0].y, hi_y = lo_y;
  for (const FieldPoint& p : nodes_) {
    lo_x = std::min(lo_x, p.x), hi_x = std::max(hi_x, p.x);
    lo_y = std::min(lo_y, p.y), hi_y = std::max(hi_y, p.y);
  }
  const double extent = std::max(hi_x - lo_x, hi_y - lo_y);
  tolerance_ = 1e-12 * (extent > 0.0 ? extent : 1.0);
  std::vector<double> all_x, all_y;
  for (const FieldPoint& p : nodes_) all_x.push_back(p.x), all_y.push_back(p.y);
  xs_ = distinct(all_x, tolerance_);
  ys_ = distinct(all_y, tolerance_);
  // A grid holds every (x, y) pairing once; a repeated node is refused whatever the layout.
  std::vector<std::size_t> cell(xs_.size() * ys_.size(), nodes_.size());
  bool grid = nodes_.size() == cell.size();
  for (std::size_t k = 0; k < nodes_.size(); ++k) {
    const std::size_t c = index_of(ys_, nodes_[k].y, tolerance_) * xs_.size() +
                          index_of(xs_, nodes_[k].x, tolerance_);
    if (cell[c] != nodes_.size())
      throw InputError(source_ + ": the field point (" + format_number(nodes_[k].x) + ", " +
                       format_number(nodes_[k].y) + ") is listed twice");
    cell[c] = k;
  }
  if (grid) {
    method_ = FieldInterpolation::cubic_grid;
    grid_node_ = std::move(cell);
    return;
  }
  // Bowyer-Watson: the nodes enter a triangle far larger than their extent one by one, each
  // replacing the triangles whose circumcircle holds it by a fan around it.
  const double cx = 0.5 * (lo_x + hi_x), cy = 0.5 * (lo_y + hi_y), d = 1e3 * extent;
  std::vector<FieldPoint> p = nodes_;
  const std::size_t s = p.size();
  p.push_back({cx - 2 * d, cy - d});
  p.push_back({cx + 2 * d, cy - d});
  p.push_back({cx, cy + 2 * d});
  std::vector<std::array<std::size_t, 3>> tri{{s, s + 1, s + 2}};
  for (std::size_t k = 0; k < s; ++k) {
    std::map<std::pair<std::size_t, std::size_t>, int> edges;
    std::vector<std::array<std::size_t, 3>> kept;
    for (const auto& t : tri) {
      const FieldPoint &a = p[t[0]], &b = p[t[1]], &c = p[t[2]];
      const double ax = a.x - p[k].x, ay = a.y - p[k].y, bx = b.x - p[k].x, by = b.y - p[k].y,
                   qx = c.x - p[k].x, qy = c.y - p[k].y;
      const double orient = cross(b.x - a.x, b.y - a.y, c.x - a.x, c.y - a.y);
      const double in = (ax * ax + ay * ay) * cross(bx, by, qx, qy) -
                        (bx * bx + by * by) * cross(ax, ay, qx, qy) +
                        (qx * qx + qy * qy) * cross(ax, ay, bx, by);
      if (in * orient > 0.0) {
        for (int e = 0; e < 3; ++e) {
          const std::size_t u = t[e], v = t[(e + 1) % 3];
          ++edges[{std::min(u, v), std::max(u, v)}];
        }
      } else kept.push_back(t);
    }
    for (const auto& [edge, count] : edges)
      if (count == 1) kept.push_back({edge.first, edge.second, k});
    tri = std::move(kept);
  }
  for (const auto& t : tri) {
    if (t[0] >= s || t[1] >= s || t[2] >= s) continue;
    const FieldPoint &a = p[t[0]], &b = p[t[1]], &c = p[t[2]];
    if (std::fabs(cross(b.x - a.x, b.y - a.y, c.x - a.x, c.y - a.y)) > tolerance_ * extent)
      triangles_.push_back(t);
  }
  if (triangles_.empty())
    throw InputError(source_ + ": the table's field points lie on one line that is not along x " +
                     "or y, so they span no area to interpolate over");
}

std::vector<double> FieldInterpolator::weights(FieldPoint point) const {
  return method_ == FieldInterpolation::cubic_grid ? grid_weights(point) : triangle_weights(point);
}

std::vector<double> FieldInterpolator::grid_weights(FieldPoint point) const {
  if (point.x < xs_.front() - tolerance_ || point.x > xs_.back() + tolerance_ ||
      point.y < ys_.front() - tolerance_ || point.y > ys_.back() + tolerance_)
    outside(point);
  const std::vector<double> wx = spline_weights(xs_, point.x);
  const std::vector<double> wy = spline_weights(ys_, point.y);
  std::vector<double> w(nodes_.size(), 0.0);
  for (std::size_t iy = 0; iy < ys_.size(); ++iy)
    for (std::size_t ix = 0; ix < xs_.size(); ++ix)
      w[grid_node_[iy * xs_.size() + ix]] = wx[ix] * wy[iy];
  return w;
}

std::vector<double> FieldInterpolator::triangle_weights(FieldPoint point) const {
  constexpr double slack = 1e-12;
  for (const auto& t : triangles_) {
    const FieldPoint &a = nodes_[t[0]], &b = nodes_[t[1]], &c = nodes_[t[2]];
    const double det = cross(b.x - a.x, b.y - a.y, c.x - a.x, c.y - a.y);
    const double u = cross(point.x - a.x, point.y - a.y, c.x - a.x, c.y - a.y) / det;
    const double v = cross(b.x - a.x, b.y - a.y, point.x - a.x, point.y - a.y) / det;
    if (u < -slack || v < -slack || u + v > 1.0 + slack) continue;
    std::vector<double> w(nodes_.size(), 0.0);
    w[t[0]] = 1.0 - u - v;
    w[t[1]] = u;
    w[t[2]] = v;
    return w;
  }
  outside(point);
}

void FieldInterpolator::outside(FieldPoint point) const {
  throw InputError("field point (" + format_number(point.x) + ", " + format_number(point.y) +
                   ") is outside the field points of " + source_ + " (" + to_string(method_) +
                   " interpolation does not extrapolate)");
}

}  // namespace psfsim

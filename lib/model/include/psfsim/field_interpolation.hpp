#pragma once
// Interpolation over a table's field points (docs/field.md): the weight of each node at a
// field point, so that any column of values (a Zernike coefficient per node) interpolates as
// the weighted sum of its entries. Where the nodes form a rectangular grid (every pairing of
// their distinct x and y values, once), the weights are those of a tensor-product natural
// cubic spline; otherwise of linear interpolation on the nodes' Delaunay triangulation. Both
// are exact at the nodes and for values linear in the field position. A point outside the
// nodes' hull (the grid's rectangle, the triangulation's convex hull) is refused.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "psfsim/field_aberration.hpp"

namespace psfsim {

enum class FieldInterpolation { cubic_grid, linear_triangulation };

[[nodiscard]] std::string to_string(FieldInterpolation method);

class FieldInterpolator {
 public:
  // Throws InputError (naming `source`, the table's file) for no nodes, a repeated node, or
  // nodes on one slanted line (no triangle and no grid).
  FieldInterpolator(std::vector<FieldPoint> nodes, std::string source);
  [[nodiscard]] FieldInterpolation method() const noexcept { return method_; }
  [[nodiscard]] std::size_t size() const noexcept { return nodes_.size(); }
  // One weight per node, in the nodes' order; they sum to 1. Throws InputError naming the
  // point and `source` when it lies outside the nodes' hull.
  [[nodiscard]] std::vector<double> weights(FieldPoint point) const;

 private:
  [[nodiscard]] std::vector<double> grid_weights(FieldPoint point) const;
  [[nodiscard]] std::vector<double> triangle_weights(FieldPoint point) const;
  [[noreturn]] void outside(FieldPoint point) const;

  std::vector<FieldPoint> nodes_;
  std::string source_;
  FieldInterpolation method_ = FieldInterpolation::linear_triangulation;
  double tolerance_ = 0.0;  // of positions, relative to the nodes' extent
  // The grid: its distinct x and y values, ascending, and node index [iy * xs + ix].
  std::vector<double> xs_, ys_;
  std::vector<std::size_t> grid_node_;
  std::vector<std::array<std::size_t, 3>> triangles_;
};

}  // namespace psfsim

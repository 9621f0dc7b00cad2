#pragma once
// A position in the field of view, in units of the field radius (docs/field.md).
namespace psfsim {

// (0, 0) on axis, |H| = 1 at the field's edge; x and y as the detector's columns and rows.
struct FieldPoint {
  double x = 0.0;
  double y = 0.0;
  bool operator==(const FieldPoint&) const = default;
};

}  // namespace psfsim

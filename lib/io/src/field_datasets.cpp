#include "field_datasets.hpp"

#include <numbers>
#include <string>

#include "hdf5_handles.hpp"
#include <hdf5_hl.h>

namespace psfsim::h5 {
namespace {

double in_arcsec(double radians) { return radians * 648'000.0 / std::numbers::pi; }

}  // namespace

bool has_field_points(const RunSpec& spec) {
  if (spec.drawn) return spec.drawn->fixed.field.has_value();
  return !spec.frames.empty() && spec.frames.front().field.has_value();
}

std::vector<FieldPoint> field_points(const RunSpec& spec) {
  if (spec.drawn)
    return std::vector<FieldPoint>(batch_size(spec),
                                   spec.drawn->fixed.field.value_or(FieldPoint{}));
  std::vector<FieldPoint> points;
  points.reserve(spec.frames.size());
  for (const Aberration& frame : spec.frames) points.push_back(frame.field.value_or(FieldPoint{}));
  return points;
}

void attach_field_scales(hid_t root, hid_t psf, const RunSpec& spec) {
  if (!has_field_points(spec)) return;
  const std::vector<FieldPoint> points = field_points(spec);
  for (const int axis : {0, 1}) {
    const std::string name = axis == 0 ? "field_x" : "field_y";
    std::vector<double> values;
    values.reserve(points.size());
    for (const FieldPoint& p : points) values.push_back(axis == 0 ? p.x : p.y);
    write_vector(root, name, values);
    const Handle set(H5Dopen2(root, name.c_str(), H5P_DEFAULT), H5Dclose, "open /" + name);
    check(H5DSset_scale(set.get(), name.c_str()), "make /" + name + " a dimension scale");
    set_attribute(set.get(), "units", std::string("field radius"));
    set_attribute(set.get(), "description",
                  std::string("field point of each frame of /psf, ") +
                      (axis == 0 ? "along the detector's columns" : "along its rows") +
                      ", in units of the field radius (0 on axis)");
    if (spec.field.radius_rad)
      set_attribute(set.get(), "field_radius_arcsec", in_arcsec(*spec.field.radius_rad));
    check(H5DSattach_scale(psf, set.get(), 0), "attach /" + name + " to /psf");
  }
}

void write_field_attributes(hid_t object, const RunSpec& spec) {
  if (spec.field.radius_rad)
    set_attribute(object, "field_radius_arcsec", in_arcsec(*spec.field.radius_rad));
  if (spec.field.table)
    set_attribute(object, "field_interpolation", to_string(spec.field.table->method()));
}

}  // namespace psfsim::h5

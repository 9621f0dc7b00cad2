#pragma once
// The field points of a run that places its frames in the field (docs/field.md): /field_x and
// /field_y, one entry per frame in units of the field radius, as dimension scales of /psf's
// first axis, and what the field model was, as /psf's attributes.
#include <hdf5.h>

#include <vector>

#include "psfsim/run_spec.hpp"

namespace psfsim::h5 {

// Whether the run's frames have field points (then /parameters and /psf record them).
[[nodiscard]] bool has_field_points(const RunSpec& spec);
// Each frame's field point (on axis for one without), in the batch's order.
[[nodiscard]] std::vector<FieldPoint> field_points(const RunSpec& spec);
// Writes /field_x and /field_y and attaches them to /psf's first axis. Call it before /frame
// is attached: netCDF readers (xarray) name an axis after its last scale, which stays /frame.
void attach_field_scales(hid_t root, hid_t psf, const RunSpec& spec);
// field_radius_arcsec and field_interpolation, where the run has them.
void write_field_attributes(hid_t object, const RunSpec& spec);

}  // namespace psfsim::h5

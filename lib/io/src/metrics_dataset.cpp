#include "metrics_dataset.hpp"

#include <algorithm>
#include <string>

namespace psfsim::h5 {
namespace {

struct Description {
  const char* units;
  const char* text;
};

Description describe(const MetricColumn& c) {
  switch (c.metric) {
    case Metric::strehl: return {"1", "maximum of the frame over the aberration-free peak"};
    case Metric::strehl_centre:
      return {"1", "value on the optical axis over the aberration-free peak"};
    case Metric::centroid:
      return {"lambda/D", "intensity-weighted mean position over the frame, from the optical axis"};
    case Metric::fwhm:
      return {"lambda/D", "full width at half maximum of the azimuthal average about the maximum"};
    case Metric::ee:
      return {"1",
              "encircled energy about the optical axis at radii_lambda_over_d, over the "
              "whole focal plane's energy"};
    case Metric::rms_wavefront:
      return {"waves", "RMS of the wavefront over the aperture, weighted by A, piston removed"};
    case Metric::mtf:
      return {"1", "radially averaged MTF at frequencies_cutoff (units of D/lambda)"};
    case Metric::contrast:
      return {"1", c.name == "contrast_mean"
                       ? "azimuthal mean of the frame over the peak of the train without its "
                         "focal-plane masks, over pixels within 0.5 lambda/D of radii_lambda_over_d"
                       : "azimuthal standard deviation of the same pixels' contrast"};
    case Metric::throughput: return {"1", "the detector's energy over the entrance pupil's"};
  }
  return {"", ""};
}

}  // namespace

MetricsDatasets::MetricsDatasets(hid_t root, const MetricsSpec& spec, std::size_t frames)
    : group_(H5Gcreate2(root, "metrics", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
             "create /metrics"),
      columns_(metric_columns(spec)) {
  const hid_t group = group_.get();
  set_attribute(group, "frames", static_cast<long long>(frames));
  for (const MetricColumn& c : columns_) {
    values_per_frame_ += c.width;
    const bool matrix =
        c.metric == Metric::ee || c.metric == Metric::mtf || c.metric == Metric::contrast;
    const hsize_t dims[2] = {frames, c.width};
    const Handle space(H5Screate_simple(matrix ? 2 : 1, dims, nullptr), H5Sclose,
                       "create a dataspace");
    Handle set(H5Dcreate2(group, c.name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                          H5P_DEFAULT, H5P_DEFAULT),
               H5Dclose, "create /metrics/" + c.name);
    const Description d = describe(c);
    set_attribute(set.get(), "units", std::string(d.units));
    set_attribute(set.get(), "description", std::string(d.text));
    if (c.metric == Metric::ee)
      set_attribute(set.get(), "radii_lambda_over_d", std::span<const double>(spec.ee_radii));
    if (c.metric == Metric::contrast)
      set_attribute(set.get(), "radii_lambda_over_d", std::span<const double>(spec.contrast_radii));
    if (c.metric == Metric::mtf)
      set_attribute(set.get(), "frequencies_cutoff", std::span<const double>(spec.mtf_frequencies));
    sets_.push_back(std::move(set));
  }
}

void MetricsDatasets::write(std::size_t first, std::size_t count, const double* rows) {
  std::vector<double> block;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    const MetricColumn& c = columns_[i];
    block.resize(count * c.width);
    for (std::size_t f = 0; f < count; ++f)
      std::copy_n(rows + f * values_per_frame_ + c.offset, c.width, block.data() + f * c.width);
    write_rows(sets_[i].get(), first, count, c.width, block.data(), "/metrics/" + c.name);
  }
}

}  // namespace psfsim::h5

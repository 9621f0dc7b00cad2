#include "psfsim/effective_config.hpp"

#include "psfsim/config_table.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/run_plan.hpp"
#include "psfsim/units.hpp"

namespace psfsim {
namespace {

template <typename Term>
std::vector<std::string> as_written(const std::vector<Term>& terms) {
  std::vector<std::string> out;
  for (const Term& t : terms) out.push_back(to_string(t));
  return out;
}

void write_optics(ConfigTable& t, const OpticsSpec& o) {
  if (o.wavelength_m) t.text(Option::wavelength, format_length(*o.wavelength_m));
  if (o.fnumber) t.number(Option::fnumber, *o.fnumber);
  if (o.pixel_pitch_m) t.text(Option::pixel_pitch, format_length(*o.pixel_pitch_m));
  if (o.diameter_m) t.text(Option::diameter, format_length(*o.diameter_m));
  if (o.pixel_scale) t.text(Option::pixel_scale, format_angle(*o.pixel_scale));
  if (!o.wavelengths_text.empty()) t.text(Option::wavelengths, o.wavelengths_text);
  if (!o.band_text.empty()) t.text(Option::band, o.band_text);
  t.text(Option::aberration_units, to_string(o.aberration_units));
  t.text(Option::propagation, to_string(o.propagation));
  t.integer(Option::oversample, o.oversample);
  if (o.jitter) t.text(Option::jitter, format_angle(*o.jitter));
  if (o.source_offset)
    t.text(Option::source_offset,
           format_angle((*o.source_offset)[0]) + "," + format_angle((*o.source_offset)[1]));
  if (o.defocus_distance_m) t.text(Option::defocus_distance, format_length(*o.defocus_distance_m));
  if (o.photons) {
    t.number(Option::photons, *o.photons);
    t.number(Option::background, o.background);
    t.number(Option::read_noise, o.read_noise);
    t.seed(Option::noise_seed, o.noise_seed);
  }
}

void write_metrics(ConfigTable& t, const MetricsSpec& m) {
  if (!m.metrics.empty()) {
    std::string names;
    for (Metric metric : m.metrics)
      names += (names.empty() ? "" : ",") + std::string(to_string(metric));
    t.text(Option::metrics, names);
    t.text(Option::ee_radii, format_number_list(m.ee_radii));
    t.text(Option::mtf_frequencies, format_number_list(m.mtf_frequencies));
    if (m.has(Metric::contrast))
      t.text(Option::contrast_radii, format_number_list(m.contrast_radii));
  }
  t.text(Option::store, to_string(m.resolved_store()));
}

void write_aperture(ConfigTable& t, const ApertureSpec& a) {
  if (a.spiders) t.text(Option::spiders, to_string(*a.spiders));
  if (a.hex_segments) t.text(Option::hex_segments, to_string(*a.hex_segments));
  if (!a.amplitude.empty()) t.text(Option::pupil_amplitude, a.amplitude);
  if (!a.opd.empty()) t.text(Option::pupil_opd, a.opd);
  if (!a.opd.empty() || a.opd_units != AberrationUnits::waves)
    t.text(Option::opd_units, to_string(a.opd_units));
}

void write_train(ConfigTable& t, const OpticalTrain& train) {
  if (train.empty()) return;
  std::vector<std::string> planes;
  for (const TrainPlane& p : train.planes) planes.push_back(to_string(p));
  t.texts(Option::plane, planes);
  t.number(Option::mask_sampling, train.mask_sampling);
}

// As written: angles stay angles, read against the same --field-radius.
void write_field(ConfigTable& t, const FieldModel& f) {
  if (!f.radius_text.empty()) t.text(Option::field_radius, f.radius_text);
  if (!f.point_text.empty()) t.text(Option::field, f.point_text);
  if (!f.grid_text.empty()) t.text(Option::field_grid, f.grid_text);
  if (!f.seidel_texts.empty()) t.texts(Option::seidel_field, f.seidel_texts);
  if (!f.double_zernike_texts.empty()) t.texts(Option::double_zernike, f.double_zernike_texts);
  if (!f.table_file.empty()) t.text(Option::field_table, f.table_file);
}

}  // namespace

std::string to_toml(const RunSpec& spec) {
  const Geometry g = geometry(spec);
  ConfigTable t("run");
  t.text(Option::backend, spec.backend);
  t.text(Option::precision, to_string(spec.precision));
  t.integer(Option::samples, spec.samples);
  // A physical pixel scale sets the sampling itself: padding options would contradict it.
  if (!g.physical) t.integer(Option::padded_size, g.padded);
  write_optics(t, spec.optics);
  t.text(Option::grid, to_string(spec.grid));
  const Aberration& first = spec.fixed_terms;
  // CLI11 rejects an empty array for an option, so absent terms are absent keys.
  if (!first.seidel.empty()) t.texts(Option::seidel, as_written(first.seidel));
  if (!first.zernike.empty()) t.texts(Option::zernike, as_written(first.zernike));
  // The terms above, --vary, --random and --frames are as written, under this convention.
  t.text(Option::zernike_order, to_string(spec.zernike.order));
  t.text(Option::zernike_norm, to_string(spec.zernike.norm));
  t.number(Option::obscuration, spec.obscuration);
  write_aperture(t, spec.aperture);
  write_train(t, spec.train);
  t.text(Option::normalize, to_string(spec.normalization));
  if (!spec.vary.empty()) t.text(Option::vary, spec.vary);
  if (!spec.random.empty()) t.text(Option::random, spec.random);
  if (!spec.frames_file.empty()) t.text(Option::frames, spec.frames_file);
  write_field(t, spec.field);
  if (spec.crop) t.integer(Option::crop, *spec.crop);
  write_metrics(t, spec.metrics);
  t.integer(Option::repeat, spec.repeat);
  t.integer(Option::threads, spec.threads);
  t.integer(Option::device, spec.device);
  t.text(Option::fft_effort, to_string(spec.fft_effort));
  if (spec.stage_timing) t.boolean(Option::stage_timing, true);
  t.text(Option::compression, spec.compression);
  if (spec.chunk_frames > 0) t.integer(Option::chunk_frames, spec.chunk_frames);
  if (!spec.wisdom.empty()) t.text(Option::wisdom, spec.wisdom);
  t.text(Option::output, spec.output.string());
  return t.toml();
}

}  // namespace psfsim

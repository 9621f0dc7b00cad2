#include "psfsim/option_table.hpp"
#include "psfsim/psf_file_writer.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "atomic_h5_file.hpp"
#include "field_datasets.hpp"
#include "mapped_frames.hpp"
#include "metrics_dataset.hpp"
#include "parameters_dataset.hpp"
#include "psf_dataset.hpp"
#include "space_reservation.hpp"
#include "psfsim/effective_config.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/output_path.hpp"
#include "psfsim/train_plan.hpp"

namespace psfsim {
namespace fs = std::filesystem;

namespace {

// docs/spec.md §7's aperture, where the options give one, in the options' own syntax.
void write_aperture_attributes(hid_t psf, const ApertureSpec& a) {
  if (a.spiders) h5::set_attribute(psf, "spiders", to_string(*a.spiders));
  if (a.hex_segments) h5::set_attribute(psf, "hex_segments", to_string(*a.hex_segments));
  if (!a.amplitude.empty()) h5::set_attribute(psf, "pupil_amplitude", a.amplitude);
  if (!a.opd.empty()) {
    h5::set_attribute(psf, "pupil_opd", a.opd);
    h5::set_attribute(psf, "opd_units", std::string(to_string(a.opd_units)));
  }
}
// The optical train after the pupil, one plane per line in --plane's syntax, and how each is
// sampled (docs/coronagraphy.md).
void write_train_attributes(hid_t psf, const OpticalTrain& train, int samples) {
  if (train.empty()) return;
  std::string planes;
  for (const TrainPlane& p : train.planes) planes += (planes.empty() ? "" : "\n") + to_string(p);
  h5::set_attribute(psf, "optical_train", planes);
  h5::set_attribute(psf, "optical_train_sampling", train_sampling_text(train, samples));
  h5::set_attribute(psf, "mask_sampling", train.mask_sampling);
}
void write_timings(hid_t root, const TimingLog& log);

// docs/spec.md §6's attributes, in SI units, where the options give them.
// `frames`: the attributes go on /psf, whose values the detector stage made; /metrics
// describes the optical PSF before it.
void write_optics_attributes(hid_t psf, const OpticsSpec& o, const Geometry& g, bool frames) {
  h5::set_attribute(psf, "propagation", std::string(to_string(g.propagation)));
  const auto optional = [&](const char* name, const std::optional<double>& v) {
    if (v) h5::set_attribute(psf, name, *v);
  };
  optional("pixel_scale_arcsec", g.pixel_scale_arcsec);
  optional("pixel_pitch_m", g.pixel_pitch_m);
  optional("fnumber", g.fnumber);
  optional("diameter_m", g.diameter_m);
  if (g.reference_wavelength_m > 0.0)  // the list is /spectrum's (write_spectrum)
    h5::set_attribute(psf, "wavelength_m", g.reference_wavelength_m);
  h5::set_attribute(psf, "aberration_units", std::string(to_string(o.aberration_units)));
  h5::set_attribute(psf, "oversample", static_cast<long long>(g.oversample));
  h5::set_attribute(psf, "jitter_lambda_over_d", g.jitter_lambda_over_d);
  // docs/physical-optics.md's static pupil terms, where given: (X, Y), the PSF's shift.
  if (o.source_offset)
    h5::set_attribute(psf, "source_offset_lambda_over_d",
                      std::span<const double>(g.source_offset_lambda_over_d));
  if (o.defocus_distance_m) h5::set_attribute(psf, "defocus_distance_m", g.defocus_distance_m);
  if (!frames) return;
  if (o.photons) {
    h5::set_attribute(psf, "units", std::string("photo-electrons"));
    h5::set_attribute(psf, "photons", *o.photons);
    h5::set_attribute(psf, "background", o.background);
    h5::set_attribute(psf, "read_noise", o.read_noise);
    h5::set_attribute(psf, "noise_seed", static_cast<long long>(o.noise_seed));
  } else {
    h5::set_attribute(psf, "units", "intensity, as " + flag(Option::normalize) + " says");
  }
}

// The wavelengths and their weights as datasets, where a wavelength is given: an attribute
// holds 64 KiB, some 8000 doubles, and --band takes up to 10000 wavelengths.
void write_spectrum(hid_t root, const Geometry& g) {
  if (!(g.reference_wavelength_m > 0.0)) return;
  std::vector<double> wavelengths, weights;
  for (const auto& line : g.spectrum) {
    wavelengths.push_back(line.wavelength_m);
    weights.push_back(line.weight);
  }
  const h5::Handle group(H5Gcreate2(root, "spectrum", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                         H5Gclose, "create /spectrum");
  h5::set_attribute(group.get(), "reference_wavelength_m", g.reference_wavelength_m);
  h5::write_vector(group.get(), "wavelength_m", wavelengths);
  h5::write_vector(group.get(), "weight", weights);
  const h5::Handle wavelength(H5Dopen2(group.get(), "wavelength_m", H5P_DEFAULT), H5Dclose,
                              "open /spectrum/wavelength_m");
  h5::set_attribute(wavelength.get(), "units", std::string("m"));
  h5::set_attribute(wavelength.get(), "description",
                    std::string("the wavelengths computed, in the order given"));
  const h5::Handle weight(H5Dopen2(group.get(), "weight", H5P_DEFAULT), H5Dclose,
                          "open /spectrum/weight");
  h5::set_attribute(weight.get(), "units", std::string("1"));
  h5::set_attribute(weight.get(), "description",
                    std::string("each wavelength's share of the energy; they sum to 1"));
}

// What /psf's attributes say about the run (docs/spec.md §3, §6, §7); /metrics carries them too,
// for
// files without /psf.
void write_run_attributes(hid_t object, const RunHeader& header, bool frames) {
  const Geometry& g = header.geometry;
  const RunSpec& spec = header.spec;
  // A photon run's frames are scaled to the photon count, whatever --normalize says.
  h5::set_attribute(
      object, "normalization",
      spec.optics.photons ? std::string("photons") : std::string(to_string(spec.normalization)));
  h5::set_attribute(object, "grid", std::string(to_string(spec.grid)));
  h5::set_attribute(object, "samples", static_cast<long long>(g.samples));
  if (g.padded > 0) {  // an MFT run at a pixel scale no integer M gives has no padded size
    h5::set_attribute(object, "padded_size", static_cast<long long>(g.padded));
    h5::set_attribute(object, "pad_factor", g.pad_factor);
  }
  h5::set_attribute(object, "pixel_scale_lambda_over_d", g.pixel_scale_lambda_over_d);
  write_optics_attributes(object, spec.optics, g, frames);
  h5::set_attribute(object, "precision", std::string(to_string(spec.precision)));
  h5::set_attribute(object, "backend", header.backend);
  if (!header.backend_choice.empty())
    h5::set_attribute(object, "backend_choice", header.backend_choice);
  h5::set_attribute(object, "obscuration", spec.obscuration);
  write_aperture_attributes(object, spec.aperture);
  write_train_attributes(object, spec.train, spec.samples);
  h5::write_field_attributes(object, spec);
  h5::set_attribute(object, "crop", static_cast<long long>(g.frame));
}

}  // namespace

struct PsfFileWriter::Impl {
  Impl(const fs::path& target, bool force, const RunHeader& h, const std::string& command_line)
      : file(target, force, h5::Provenance{command_line, to_toml(h.spec)}),
        compression(parse_compression(h.spec.compression)),
        layout{batch_size(h.spec), static_cast<std::size_t>(h.geometry.frame), h.spec.precision,
               compression.kind != Compression::Kind::none} {}
  h5::AtomicFile file;
  Compression compression;
  h5::PsfLayout layout;
  h5::Handle psf;
  // Uncompressed frames: their chunks' places are known, and their space allocated ahead.
  std::optional<SpaceReservation> reservation;
  std::optional<h5::MappedFrames> mapped;  // after the reservation: closed before it stops
  std::optional<h5::MetricsDatasets> metrics;
  std::optional<h5::ParameterDatasets> parameters;
};

PsfFileWriter::PsfFileWriter(fs::path path, bool force, std::string command_line,
                             std::span<const InputFile> inputs)
    : path_(std::move(path)), force_(force), command_line_(std::move(command_line)) {
  check_output_path(path_, force, flag(Option::output), inputs);
}

PsfFileWriter::~PsfFileWriter() {
  if (impl_) impl_->psf.reset();
}

template <typename Step>
void PsfFileWriter::naming_the_file(Step&& step) {
  h5::silence_library_errors();  // per thread: frames are written on the run's writer thread
  try {
    step();
  } catch (const RuntimeFailure& e) {
    throw RuntimeFailure(path_.string() + ": " + e.what());
  }
}

void PsfFileWriter::open(const RunHeader& header) {
  naming_the_file([&] { create(header); });
}

void PsfFileWriter::write_frames(std::size_t first, std::size_t count, const void* data) {
  naming_the_file([&] {
    write_hyperslab(first, count, data);
    impl_->parameters->write_through(first + count);
  });
}

void PsfFileWriter::write_metrics(std::size_t first, std::size_t count, const double* values) {
  naming_the_file([&] {
    impl_->metrics->write(first, count, values);
    impl_->parameters->write_through(first + count);
  });
}

void PsfFileWriter::close(TimingLog& log) {
  naming_the_file([&] { finish(log); });
}

void PsfFileWriter::create(const RunHeader& header) {
  impl_ = std::make_unique<Impl>(path_, force_, header, command_line_);
  Impl& d = *impl_;
  const hid_t root = d.file.root();
  const Geometry& g = header.geometry;
  const Precision precision = header.spec.precision;
  const MetricsSpec& metrics = header.spec.metrics;
  h5::set_attribute(root, "store", std::string(to_string(metrics.resolved_store())));
  d.parameters.emplace(root, header.spec);
  write_spectrum(root, g);
  if (metrics.stores_metrics()) {
    d.metrics.emplace(root, metrics, batch_size(header.spec));
    write_run_attributes(d.metrics->group(), header, false);
  }
  if (!metrics.stores_frames()) return;
  d.psf = h5::create_psf_dataset(root, batch_size(header.spec), g.frame, precision, d.compression);
  const hid_t psf = d.psf.get();
  write_run_attributes(psf, header, true);
  h5::set_attribute(psf, "compression", d.compression.text());
  h5::attach_field_scales(root, psf, header.spec);  // first: /frame names the axis
  h5::attach_dimension_scales(root, psf, batch_size(header.spec), g);
  if (!d.layout.compressed) {
    h5::MappedFrames& mapped = d.mapped.emplace(d.file.partial(), psf, d.layout);
    d.reservation.emplace(d.file.partial(), mapped.region_begin(), mapped.region_end());
  }
}

void PsfFileWriter::write_hyperslab(std::size_t first, std::size_t count, const void* data) {
  Impl& d = *impl_;
  // Through the mapping where the range is allocated; through HDF5 where the file system
  // cannot allocate ahead.
  if (d.mapped && d.reservation->require_space(d.mapped->file_end(first, count))) {
    d.mapped->write(first, count, data);
    return;
  }
  h5::write_psf_frames(d.psf.get(), d.layout, first, count, data);
}

namespace {

void write_timings(hid_t root, const TimingLog& log) {
  const h5::Handle group(H5Gcreate2(root, "timings", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                         H5Gclose, "create /timings");
  for (std::size_t s = 0; s < log.stages.size(); ++s)
    h5::write_vector(group.get(), log.stages[s], log.seconds[s]);
  h5::write_vector(group.get(), "total", log.total);
  const double plan[1] = {log.plan};
  h5::write_vector(group.get(), "plan", plan);
  const double write[1] = {log.write};
  h5::write_vector(group.get(), "write", write);
  h5::set_attribute(group.get(), "units", std::string("s"));
  h5::set_attribute(group.get(), "backend", log.backend);
  h5::set_attribute(group.get(), "device", log.device);
  h5::set_attribute(group.get(), "precision", log.precision);
  h5::set_attribute(group.get(), "threads", static_cast<long long>(log.threads));
  h5::set_attribute(group.get(), "repeats", static_cast<long long>(log.repeats()));
  if (!log.fused.empty()) h5::set_attribute(group.get(), "fused_stages", log.fused);
}

}  // namespace

void PsfFileWriter::finish(TimingLog& log) {
  const auto t0 = std::chrono::steady_clock::now();
  Impl& d = *impl_;
  if (d.reservation) (void)d.reservation->require_space(SIZE_MAX);
  d.mapped.reset();
  d.psf.reset();
  d.metrics.reset();
  d.parameters->write_through(d.layout.frames);
  d.parameters.reset();
  log.write += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  write_timings(d.file.root(), log);
  d.file.commit();
}

}  // namespace psfsim

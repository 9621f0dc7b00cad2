#include "psfsim/psf_file_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>

#include "hdf5_handles.hpp"
#include "psfsim/build_config.hpp"
#include "psfsim/errors.hpp"

namespace psfsim {
namespace fs = std::filesystem;

namespace {

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

fs::path folder_of(const fs::path& path) {
  const fs::path parent = path.parent_path();
  return parent.empty() ? fs::path(".") : parent;
}

fs::path temporary_name(const fs::path& path) {
  return folder_of(path) /
         ("." + path.filename().string() + ".partial-" + std::to_string(::getpid()));
}

}  // namespace

void check_output_path(const fs::path& path, bool force) {
  const std::string name = path.string();
  if (path.empty()) throw InputError("--output: an output file is required (-o FILE)");
  if (path.filename().empty() || fs::is_directory(path))
    throw InputError("--output " + name + ": is a folder, not a file name");
  const fs::path folder = folder_of(path);
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    throw InputError("--output " + name + ": folder '" + folder.string() + "' does not exist");
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw InputError("--output " + name + ": folder '" + folder.string() + "' is not writable");
  if (fs::exists(path, ec) && !force)
    throw InputError("--output " + name + ": file exists (use --force to overwrite)");
  // access() says yes to root on read-only mounts and pseudo file systems: try for real,
  // before any computing, so an unwritable folder is bad input rather than a late failure.
  const fs::path probe = temporary_name(path);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    throw InputError("--output " + name + ": cannot create files in folder '" + folder.string() +
                     "': " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

struct PsfFileWriter::Impl {
  fs::path target;
  fs::path temporary;
  PsfFileLayout layout;
  h5::Handle file;
  h5::Handle psf;
  bool committed = false;
};

PsfFileWriter::PsfFileWriter(fs::path path, const PsfFileLayout& layout)
    : impl_(std::make_unique<Impl>()) {
  h5::silence_library_errors();
  Impl& d = *impl_;
  d.target = std::move(path);
  d.temporary = temporary_name(d.target);
  d.layout = layout;
  std::error_code ec;
  fs::remove(d.temporary, ec);  // a leftover of a killed run with our pid
  d.file = h5::Handle(H5Fcreate(d.temporary.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT),
                      H5Fclose, "create " + d.temporary.string());

  const hid_t root = d.file.get();
  h5::set_attribute(root, "psfsim_version", std::string(PSFSIM_VERSION));
  h5::set_attribute(root, "git_commit", std::string(PSFSIM_GIT_COMMIT));
  h5::set_attribute(root, "created_utc", utc_now_iso8601());
  h5::set_attribute(root, "command_line", layout.command_line);
  h5::set_attribute(root, "config", layout.config_toml);

  const hsize_t k = static_cast<hsize_t>(layout.geometry.frame);
  const hsize_t dims[3] = {layout.frames, k, k};
  const std::size_t real = bytes_per_real(layout.precision);
  // One frame per chunk, split by rows where a frame exceeds HDF5's 4 GiB chunk limit.
  const hsize_t rows = std::max<hsize_t>(1, std::min<hsize_t>(k, (hsize_t{1} << 30) / (k * real)));
  const hsize_t chunk[3] = {1, rows, k};
  const h5::Handle space(H5Screate_simple(3, dims, nullptr), H5Sclose, "create /psf dataspace");
  const h5::Handle props(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "create /psf properties");
  h5::check(H5Pset_chunk(props.get(), 3, chunk), "chunk /psf");
  const hid_t type = layout.precision == Precision::single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
  d.psf = h5::Handle(
      H5Dcreate2(root, "psf", type, space.get(), H5P_DEFAULT, props.get(), H5P_DEFAULT),
      H5Dclose, "create /psf");
  const hid_t psf = d.psf.get();
  const Geometry& g = layout.geometry;
  h5::set_attribute(psf, "normalization", std::string(to_string(layout.normalization)));
  h5::set_attribute(psf, "grid", std::string(to_string(layout.grid)));
  h5::set_attribute(psf, "samples", static_cast<long long>(g.samples));
  h5::set_attribute(psf, "padded_size", static_cast<long long>(g.padded));
  h5::set_attribute(psf, "pad_factor", g.pad_factor);
  h5::set_attribute(psf, "pixel_scale_lambda_over_d", g.pixel_scale_lambda_over_d);
  h5::set_attribute(psf, "precision", std::string(to_string(layout.precision)));
  h5::set_attribute(psf, "backend", layout.backend);
  h5::set_attribute(psf, "obscuration", layout.obscuration);
  h5::set_attribute(psf, "crop", static_cast<long long>(g.frame));
}

PsfFileWriter::~PsfFileWriter() {
  if (!impl_->committed) {
    impl_->psf.reset();
    impl_->file.reset();
    std::error_code ec;
    fs::remove(impl_->temporary, ec);
  }
}

void PsfFileWriter::write_frames(std::size_t first, std::size_t count, const void* data) {
  const Impl& d = *impl_;
  const hsize_t k = static_cast<hsize_t>(d.layout.geometry.frame);
  const hsize_t start[3] = {first, 0, 0};
  const hsize_t extent[3] = {count, k, k};
  const h5::Handle file_space(H5Dget_space(d.psf.get()), H5Sclose, "get /psf dataspace");
  h5::check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr),
            "select frames of /psf");
  const h5::Handle memory_space(H5Screate_simple(3, extent, nullptr), H5Sclose,
                                "create a memory dataspace");
  const hid_t type =
      d.layout.precision == Precision::single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
  h5::check(H5Dwrite(d.psf.get(), type, memory_space.get(), file_space.get(), H5P_DEFAULT, data),
            "write frames to " + d.target.string());
}

void PsfFileWriter::write_parameters(const std::vector<PhaseTerms>& frames) {
  // One float64 column per term that any frame uses; repeated terms in a frame add up.
  struct Column {
    std::string kind;
    int first = 0;
    int second = -1;
    std::vector<double> values;
  };
  std::map<std::string, Column> columns;
  const std::size_t b = frames.size();
  for (std::size_t f = 0; f < b; ++f) {
    for (const auto& t : frames[f].seidel) {
      auto& c = columns[term_name(t)];
      c.kind = "seidel";
      c.first = t.l;
      c.second = t.m;
      c.values.resize(b, 0.0);
      c.values[f] += t.waves;
    }
    for (const auto& t : frames[f].zernike) {
      auto& c = columns[term_name(t)];
      c.kind = "zernike";
      c.first = t.j;
      c.values.resize(b, 0.0);
      c.values[f] += t.waves;
    }
  }
  const h5::Handle group(
      H5Gcreate2(impl_->file.get(), "parameters", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      H5Gclose, "create /parameters");
  h5::set_attribute(group.get(), "frames", static_cast<long long>(b));
  h5::set_attribute(group.get(), "units", std::string("waves"));
  h5::set_attribute(group.get(), "description",
                    std::string("one dataset per phase term, one entry per frame: Sl_m is the "
                                "Seidel term W rho^l cos^m(phi), Zj the Noll Zernike term j"));
  for (const auto& [name, c] : columns) {
    h5::write_vector(group.get(), name, c.values);
    const h5::Handle set(H5Dopen2(group.get(), name.c_str(), H5P_DEFAULT), H5Dclose,
                         "open /parameters/" + name);
    h5::set_attribute(set.get(), "kind", c.kind);
    h5::set_attribute(set.get(), "units", std::string("waves"));
    if (c.kind == "seidel") {
      h5::set_attribute(set.get(), "l", static_cast<long long>(c.first));
      h5::set_attribute(set.get(), "m", static_cast<long long>(c.second));
    } else {
      h5::set_attribute(set.get(), "j", static_cast<long long>(c.first));
    }
  }
}

void PsfFileWriter::write_timings(const TimingLog& log) {
  const h5::Handle group(
      H5Gcreate2(impl_->file.get(), "timings", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose,
      "create /timings");
  for (std::size_t s = 0; s < log.stages.size(); ++s)
    h5::write_vector(group.get(), log.stages[s], log.seconds[s]);
  h5::write_vector(group.get(), "total", log.total);
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

void PsfFileWriter::commit() {
  Impl& d = *impl_;
  d.psf.reset();
  h5::check(H5Fflush(d.file.get(), H5F_SCOPE_GLOBAL), "flush " + d.temporary.string());
  d.file.reset();
  std::error_code ec;
  fs::rename(d.temporary, d.target, ec);
  if (ec)
    throw RuntimeFailure("cannot rename " + d.temporary.string() + " to " + d.target.string() +
                         ": " + ec.message());
  d.committed = true;
}

}  // namespace psfsim

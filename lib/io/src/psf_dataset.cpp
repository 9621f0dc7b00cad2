#include "psf_dataset.hpp"

#include <hdf5_hl.h>

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "psfsim/errors.hpp"
#include "psfsim/file_chunks.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim::h5 {
namespace {

// Registered HDF5 filter identifiers. Debian packages LZ4 (hdf5-filter-plugin) but no
// stand-alone zstd filter, so zstd goes through Blosc (hdf5-filter-plugin-blosc-serial),
// as h5py's hdf5plugin.Blosc(cname="zstd") writes it.
constexpr H5Z_filter_t lz4_filter = 32004;
constexpr H5Z_filter_t blosc_filter = 32001;
constexpr unsigned blosc_byte_shuffle = 1;
constexpr unsigned blosc_zstd = 5;

void add_plugin_filter(hid_t props, H5Z_filter_t id, const char* name, const char* package,
                       std::vector<unsigned> values) {
  if (H5Zfilter_avail(id) <= 0)
    throw RuntimeFailure(flag(Option::compression) + " " + name + ": its HDF5 filter plugin is " +
                         "not installed (Debian package " + package +
                         "; or point HDF5_PLUGIN_PATH at the plugin)");
  check(H5Pset_filter(props, id, H5Z_FLAG_MANDATORY, values.size(), values.data()),
        std::string("set the ") + name + " filter on /psf");
}

void add_filters(hid_t props, const Compression& c) {
  switch (c.kind) {
    case Compression::Kind::none: return;
    case Compression::Kind::deflate:
      check(H5Pset_shuffle(props), "set the shuffle filter on /psf");
      check(H5Pset_deflate(props, static_cast<unsigned>(c.level)), "set deflate on /psf");
      return;
    case Compression::Kind::lz4:
      add_plugin_filter(props, lz4_filter, "lz4", "hdf5-filter-plugin", {});
      return;
    case Compression::Kind::zstd:
      // Blosc fills in its first four values (version, type size, chunk size) itself.
      add_plugin_filter(
          props, blosc_filter, "zstd", "hdf5-filter-plugin-blosc-serial",
          {0, 0, 0, 0, static_cast<unsigned>(c.level), blosc_byte_shuffle, blosc_zstd});
      return;
  }
}

// Frame numbers as integers, so that xarray and h5py show 0, 1, 2 rather than 0.0, 1.0, 2.0.
void write_frame_numbers(hid_t root, std::size_t frames) {
  std::vector<long long> index(frames);
  for (std::size_t f = 0; f < frames; ++f) index[f] = static_cast<long long>(f);
  const hsize_t dims[1] = {frames};
  const Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose, "create the /frame dataspace");
  const Handle set(
      H5Dcreate2(root, "frame", H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
      H5Dclose, "create /frame");
  check(H5Dwrite(set.get(), H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, index.data()),
        "write /frame");
}

// Makes the dataset `name` of the root a dimension scale, with its units.
Handle scale(hid_t root, const char* name, const char* units, const char* description) {
  Handle set(H5Dopen2(root, name, H5P_DEFAULT), H5Dclose, std::string("open /") + name);
  check(H5DSset_scale(set.get(), name), std::string("make /") + name + " a dimension scale");
  set_attribute(set.get(), "units", std::string(units));
  set_attribute(set.get(), "description", std::string(description));
  return set;
}

}  // namespace

Handle create_psf_dataset(hid_t root, std::size_t frames, int edge, Precision precision,
                          const Compression& compression) {
  const hsize_t k = static_cast<hsize_t>(edge);
  const std::size_t real = bytes_per_real(precision);
  const ChunkShape shape = psf_chunk_shape(k, real, frames);
  const hsize_t dims[3] = {frames, k, k};
  const hsize_t chunk[3] = {shape.frames, shape.rows, k};
  const Handle space(H5Screate_simple(3, dims, nullptr), H5Sclose, "create the /psf dataspace");
  const Handle create(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "create /psf properties");
  check(H5Pset_chunk(create.get(), 3, chunk), "chunk /psf");
  add_filters(create.get(), compression);
  // Uncompressed chunks have their places in the file from the start, without fill values
  // written: MappedFrames copies the frames straight there.
  if (compression.kind == Compression::Kind::none) {
    check(H5Pset_alloc_time(create.get(), H5D_ALLOC_TIME_EARLY), "allocate /psf early");
    check(H5Pset_fill_time(create.get(), H5D_FILL_TIME_NEVER), "leave /psf unfilled");
  }
  // Room for two chunks: writes that end inside a chunk leave it cached until the next
  // write completes it, so no chunk is ever written twice or read back.
  const std::size_t chunk_bytes = shape.frames * shape.rows * k * real;
  const Handle access(H5Pcreate(H5P_DATASET_ACCESS), H5Pclose, "create /psf access properties");
  check(H5Pset_chunk_cache(access.get(), 521, 2 * chunk_bytes + (1 << 20), 1.0),
        "size the /psf chunk cache");
  const hid_t type = precision == Precision::single ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
  return Handle(H5Dcreate2(root, "psf", type, space.get(), H5P_DEFAULT, create.get(), access.get()),
                H5Dclose, "create /psf");
}

void attach_dimension_scales(hid_t root, hid_t psf, std::size_t frames, const Geometry& g) {
  write_frame_numbers(root, frames);
  // Row r of a K-pixel frame is padded index M/2 - K/2 + r; the optical axis is M/2.
  std::vector<double> centres(static_cast<std::size_t>(g.frame));
  for (int r = 0; r < g.frame; ++r) centres[r] = (r - g.frame / 2) * g.pixel_scale_lambda_over_d;
  write_vector(root, "y", centres);
  write_vector(root, "x", centres);
  const Handle frame = scale(root, "frame", "index", "frame number of /psf's first axis");
  const Handle y =
      scale(root, "y", "lambda/D", "pixel centres of /psf's rows from the optical axis");
  const Handle x =
      scale(root, "x", "lambda/D", "pixel centres of /psf's columns from the optical axis");
  check(H5DSattach_scale(psf, frame.get(), 0), "attach /frame to /psf");
  check(H5DSattach_scale(psf, y.get(), 1), "attach /y to /psf");
  check(H5DSattach_scale(psf, x.get(), 2), "attach /x to /psf");
  // The same centres in physical units, arcsec on the sky or um on the detector where the
  // options give them, as coordinates along /y and /x, not as second scales of /psf's axes:
  // netCDF readers (xarray) take one scale per axis, and a second one renamed the axis. Each
  // has /y or /x as its own scale, and /psf's `coordinates` (CF) names them.
  std::string coordinates;
  const auto physical = [&](double per_lambda_over_d, const char* units, const char* suffix) {
    std::vector<double> values(centres);
    for (double& v : values) v *= per_lambda_over_d;
    for (const Handle* axis : {&y, &x}) {
      const bool rows = axis == &y;
      const std::string name = std::string(rows ? "y" : "x") + "_" + suffix;
      write_vector(root, name, values);
      const Handle set(H5Dopen2(root, name.c_str(), H5P_DEFAULT), H5Dclose, "open /" + name);
      set_attribute(set.get(), "units", std::string(units));
      set_attribute(set.get(), "description",
                    std::string("pixel centres of /psf's ") + (rows ? "rows" : "columns") +
                        " from the optical axis");
      check(H5DSattach_scale(set.get(), axis->get(), 0),
            std::string("attach /") + (rows ? "y" : "x") + " to /" + name);
      coordinates += (coordinates.empty() ? "" : " ") + name;
    }
  };
  const double s = g.pixel_scale_lambda_over_d;
  if (g.pixel_scale_arcsec) physical(*g.pixel_scale_arcsec / s, "arcsec", "arcsec");
  if (g.pixel_pitch_m) physical(*g.pixel_pitch_m * 1e6 / s, "um", "um");
  if (!coordinates.empty()) set_attribute(psf, "coordinates", coordinates);
  check(H5DSset_label(psf, 0, "frame"), "label /psf's axes");
  check(H5DSset_label(psf, 1, "y"), "label /psf's axes");
  check(H5DSset_label(psf, 2, "x"), "label /psf's axes");
}

namespace {

void write_hyperslab(hid_t psf, const PsfLayout& layout, std::size_t first, std::size_t count,
                     const void* data) {
  if (count == 0) return;
  const hsize_t k = layout.edge;
  const hsize_t start[3] = {first, 0, 0};
  const hsize_t extent[3] = {count, k, k};
  const Handle file_space(H5Dget_space(psf), H5Sclose, "get the /psf dataspace");
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr),
        "select frames of /psf");
  const Handle memory_space(H5Screate_simple(3, extent, nullptr), H5Sclose,
                            "create a memory dataspace");
  const hid_t type = layout.precision == Precision::single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
  check(H5Dwrite(psf, type, memory_space.get(), file_space.get(), H5P_DEFAULT, data),
        "write frames " + std::to_string(first) + " to " + std::to_string(first + count - 1) +
            " of /psf");
}

}  // namespace

void write_psf_frames(hid_t psf, const PsfLayout& layout, std::size_t first, std::size_t count,
                      const void* data) {
  const std::size_t real = bytes_per_real(layout.precision);
  const std::size_t frame_bytes = layout.edge * layout.edge * real;
  const ChunkShape shape = psf_chunk_shape(layout.edge, real, layout.frames);
  const auto* bytes = static_cast<const unsigned char*>(data);
  // The file stores little-endian IEEE reals, which native ones are on every machine
  // psfsim builds for; direct chunk writes pass bytes through unconverted.
  static_assert(std::endian::native == std::endian::little);
  if (layout.compressed || shape.rows != layout.edge) {
    write_hyperslab(psf, layout, first, count, data);
    return;
  }
  const std::size_t per_chunk = shape.frames;
  const std::size_t end = first + count;
  // Whole chunks inside [first, end) and inside the dataset (an edge chunk reaches past B).
  const std::size_t whole_begin = (first + per_chunk - 1) / per_chunk * per_chunk;
  const std::size_t whole_end = std::min(end, layout.frames) / per_chunk * per_chunk;
  if (whole_begin >= whole_end) {
    write_hyperslab(psf, layout, first, count, data);
    return;
  }
  write_hyperslab(psf, layout, first, whole_begin - first, data);
  for (std::size_t c = whole_begin; c < whole_end; c += per_chunk) {
    const hsize_t offset[3] = {c, 0, 0};
    check(H5Dwrite_chunk(psf, H5P_DEFAULT, 0, offset, per_chunk * frame_bytes,
                         bytes + (c - first) * frame_bytes),
          "write frames " + std::to_string(c) + " to " + std::to_string(c + per_chunk - 1) +
              " of /psf");
  }
  write_hyperslab(psf, layout, whole_end, end - whole_end,
                  bytes + (whole_end - first) * frame_bytes);
}

}  // namespace psfsim::h5

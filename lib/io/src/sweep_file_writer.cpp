#include "psfsim/sweep_file_writer.hpp"

#include <cstddef>
#include <cstring>

#include "atomic_h5_file.hpp"
#include "psfsim/errors.hpp"

namespace psfsim {
namespace {

constexpr std::size_t name_bytes = 16;
constexpr std::size_t stages_bytes = 48;  // "pupil+mft+intensity+transfer" and the like

// The on-disk row: fixed-length strings so that h5py reads the table as one NumPy array.
struct PackedRow {
  char backend[name_bytes];
  char precision[name_bytes];
  char propagation[name_bytes];
  char store[name_bytes];
  int samples, padded_size, batch, crop, repeats;
  double pupil_median_s, fft_median_s, mft_median_s, intensity_median_s, metrics_median_s,
      transfer_median_s;
  char fused_stages[stages_bytes];
  double fused_median_s;
  double total_median_s, total_min_s, total_max_s, psfs_per_second;
};

template <std::size_t Bytes>
void copy_name(char (&out)[Bytes], const std::string& in) {
  std::memset(out, 0, Bytes);
  std::memcpy(out, in.data(), std::min(in.size(), Bytes - 1));
}

h5::Handle row_type() {
  h5::Handle text(H5Tcopy(H5T_C_S1), H5Tclose, "copy a string type");
  h5::check(H5Tset_size(text.get(), name_bytes), "size a string type");
  h5::check(H5Tset_strpad(text.get(), H5T_STR_NULLTERM), "pad a string type");
  h5::Handle long_text(H5Tcopy(text.get()), H5Tclose, "copy a string type");
  h5::check(H5Tset_size(long_text.get(), stages_bytes), "size a string type");
  h5::Handle t(H5Tcreate(H5T_COMPOUND, sizeof(PackedRow)), H5Tclose, "create the /sweep type");
  const hid_t id = t.get();
  const auto field = [&](const char* name, std::size_t offset, hid_t type) {
    h5::check(H5Tinsert(id, name, offset, type), std::string("describe /sweep field ") + name);
  };
  field("backend", offsetof(PackedRow, backend), text.get());
  field("precision", offsetof(PackedRow, precision), text.get());
  field("propagation", offsetof(PackedRow, propagation), text.get());
  field("store", offsetof(PackedRow, store), text.get());
  field("samples", offsetof(PackedRow, samples), H5T_NATIVE_INT);
  field("padded_size", offsetof(PackedRow, padded_size), H5T_NATIVE_INT);
  field("batch", offsetof(PackedRow, batch), H5T_NATIVE_INT);
  field("crop", offsetof(PackedRow, crop), H5T_NATIVE_INT);
  field("repeats", offsetof(PackedRow, repeats), H5T_NATIVE_INT);
  field("pupil_median_s", offsetof(PackedRow, pupil_median_s), H5T_NATIVE_DOUBLE);
  field("fft_median_s", offsetof(PackedRow, fft_median_s), H5T_NATIVE_DOUBLE);
  field("mft_median_s", offsetof(PackedRow, mft_median_s), H5T_NATIVE_DOUBLE);
  field("intensity_median_s", offsetof(PackedRow, intensity_median_s), H5T_NATIVE_DOUBLE);
  field("metrics_median_s", offsetof(PackedRow, metrics_median_s), H5T_NATIVE_DOUBLE);
  field("transfer_median_s", offsetof(PackedRow, transfer_median_s), H5T_NATIVE_DOUBLE);
  field("fused_stages", offsetof(PackedRow, fused_stages), long_text.get());
  field("fused_median_s", offsetof(PackedRow, fused_median_s), H5T_NATIVE_DOUBLE);
  field("total_median_s", offsetof(PackedRow, total_median_s), H5T_NATIVE_DOUBLE);
  field("total_min_s", offsetof(PackedRow, total_min_s), H5T_NATIVE_DOUBLE);
  field("total_max_s", offsetof(PackedRow, total_max_s), H5T_NATIVE_DOUBLE);
  field("psfs_per_second", offsetof(PackedRow, psfs_per_second), H5T_NATIVE_DOUBLE);
  return t;
}

void write_table(const std::filesystem::path& path, bool force,
                 const std::vector<PackedRow>& packed, const std::string& command_line,
                 const std::string& config_toml) {
  h5::AtomicFile file(path, force, h5::Provenance{command_line, config_toml});
  {
    const h5::Handle type = row_type();
    const hsize_t dims[1] = {packed.size()};
    const h5::Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose, "create /sweep space");
    const h5::Handle set(H5Dcreate2(file.root(), "sweep", type.get(), space.get(), H5P_DEFAULT,
                                    H5P_DEFAULT, H5P_DEFAULT),
                         H5Dclose, "create /sweep");
    if (!packed.empty())
      h5::check(H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()),
                "write /sweep");
    h5::set_attribute(set.get(), "units", std::string("s"));
    h5::set_attribute(set.get(), "description",
                      std::string("one row per (backend, precision, propagation, store, samples, "
                                  "padded_size, crop, batch): "
                                  "median seconds of each stage per compute of the batch, NaN "
                                  "where a backend has no such stage"));
  }
  file.commit();
}

}  // namespace

void write_sweep_file(const std::filesystem::path& path, bool force,
                      const std::vector<SweepRow>& rows, const std::string& command_line,
                      const std::string& config_toml) {
  std::vector<PackedRow> packed(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const SweepRow& r = rows[i];
    PackedRow& p = packed[i];
    copy_name(p.backend, r.backend);
    copy_name(p.precision, r.precision);
    copy_name(p.propagation, r.propagation);
    copy_name(p.store, r.store);
    p.samples = r.samples;
    p.padded_size = r.padded_size;
    p.batch = r.batch;
    p.crop = r.crop;
    p.repeats = r.repeats;
    p.pupil_median_s = r.pupil;
    p.fft_median_s = r.fft;
    p.mft_median_s = r.mft;
    p.intensity_median_s = r.intensity;
    p.metrics_median_s = r.metrics;
    p.transfer_median_s = r.transfer;
    copy_name(p.fused_stages, r.fused_stages);
    p.fused_median_s = r.fused;
    p.total_median_s = r.total_median;
    p.total_min_s = r.total_min;
    p.total_max_s = r.total_max;
    p.psfs_per_second = r.psfs_per_second;
  }
  try {
    write_table(path, force, packed, command_line, config_toml);
  } catch (const RuntimeFailure& e) {
    throw RuntimeFailure(path.string() + ": " + e.what());
  }
}

}  // namespace psfsim

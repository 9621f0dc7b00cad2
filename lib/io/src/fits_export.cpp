#include "psfsim/fits_export.hpp"

#include <fitsio.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "hdf5_handles.hpp"
#include "psfsim/build_commit.hpp"
#include "psfsim/build_config.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/option_table.hpp"
#include "psfsim/output_path.hpp"
#include "psfsim/partial_file.hpp"

namespace psfsim {
namespace fs = std::filesystem;
namespace {

// ---- Reading the psfsim file (every failure is the input's: exit 2)

class Input {
 public:
  explicit Input(const fs::path& path) : name_(path.string()) {}
  [[noreturn]] void fail(const std::string& why) const { throw InputError(name_ + ": " + why); }
  [[nodiscard]] const std::string& name() const { return name_; }

 private:
  std::string name_;
};

bool has_attribute(hid_t object, const char* name) { return H5Aexists(object, name) > 0; }

// A numeric attribute's elements as float64 (HDF5 converts integers); none when absent or
// not numeric.
std::optional<std::vector<double>> read_numbers(hid_t object, const char* name) {
  if (!has_attribute(object, name)) return std::nullopt;
  const h5::Handle attr(H5Aopen(object, name, H5P_DEFAULT), H5Aclose, "open attribute");
  const h5::Handle type(H5Aget_type(attr.get()), H5Tclose, "read an attribute's type");
  const H5T_class_t kind = H5Tget_class(type.get());
  if (kind != H5T_FLOAT && kind != H5T_INTEGER) return std::nullopt;
  const h5::Handle space(H5Aget_space(attr.get()), H5Sclose, "read an attribute's shape");
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  if (count <= 0) return std::nullopt;
  std::vector<double> values(static_cast<std::size_t>(count));
  if (H5Aread(attr.get(), H5T_NATIVE_DOUBLE, values.data()) < 0) return std::nullopt;
  return values;
}

std::optional<double> read_number(hid_t object, const char* name) {
  const auto values = read_numbers(object, name);
  if (!values || values->size() != 1) return std::nullopt;
  return values->front();
}

// The wavelengths a file computed: /spectrum/wavelength_m's length, or the `wavelengths_m`
// attribute of /psf in files written before /spectrum; 1 when neither is there.
long long spectrum_size(hid_t root, hid_t psf) {
  if (H5Lexists(root, "spectrum", H5P_DEFAULT) > 0 &&
      H5Lexists(root, "spectrum/wavelength_m", H5P_DEFAULT) > 0) {
    const h5::Handle set(H5Dopen2(root, "spectrum/wavelength_m", H5P_DEFAULT), H5Dclose,
                         "open /spectrum/wavelength_m");
    const h5::Handle space(H5Dget_space(set.get()), H5Sclose, "read /spectrum's shape");
    const hssize_t count = H5Sget_simple_extent_npoints(space.get());
    if (count > 0) return static_cast<long long>(count);
  }
  const auto old = read_numbers(psf, "wavelengths_m");
  return old ? static_cast<long long>(old->size()) : 1;
}

// A scalar string attribute, variable-length (as psfsim writes) or fixed (as h5py may).
std::optional<std::string> read_text(hid_t object, const char* name) {
  if (!has_attribute(object, name)) return std::nullopt;
  const h5::Handle attr(H5Aopen(object, name, H5P_DEFAULT), H5Aclose, "open attribute");
  const h5::Handle type(H5Aget_type(attr.get()), H5Tclose, "read an attribute's type");
  if (H5Tget_class(type.get()) != H5T_STRING) return std::nullopt;
  const h5::Handle memory(H5Tcopy(H5T_C_S1), H5Tclose, "copy a string type");
  // HDF5 converts no UTF-8 string to ASCII: read in the attribute's own character set.
  h5::check(H5Tset_cset(memory.get(), H5Tget_cset(type.get())), "set a string charset");
  if (H5Tis_variable_str(type.get()) > 0) {
    h5::check(H5Tset_size(memory.get(), H5T_VARIABLE), "size a string type");
    char* text = nullptr;
    if (H5Aread(attr.get(), memory.get(), &text) < 0 || text == nullptr) return std::nullopt;
    std::string value(text);
    H5free_memory(text);
    return value;
  }
  const std::size_t size = H5Tget_size(type.get());
  h5::check(H5Tset_size(memory.get(), size + 1), "size a string type");
  std::vector<char> text(size + 1, '\0');
  if (H5Aread(attr.get(), memory.get(), text.data()) < 0) return std::nullopt;
  return std::string(text.data());
}

// ---- Writing FITS (every failure is the machine's: exit 3)

// FITS headers are printable ASCII; anything else (UTF-8 in a path) becomes '?'.
std::string ascii(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (c < 0x20 || c > 0x7e) c = '?';
  return out;
}

// A PartialFile whose failure names the target, as every failure of the export does.
PartialFile partial_of(const fs::path& target, bool force) {
  try {
    return PartialFile(target, force);
  } catch (const RuntimeFailure& e) {
    throw RuntimeFailure(target.string() + ": " + e.what());
  }
}

// The FITS file, built as a PartialFile: removed if never committed and by the stop-signal
// handler while partial.
class FitsOutput {
 public:
  FitsOutput(const fs::path& target, bool force) : partial_(partial_of(target, force)) {
    errno = 0;
    // The disk-file call: no CFITSIO extended file name syntax in the user's path.
    if (fits_create_diskfile(&file_, partial_.path().c_str(), &status_) != 0) {
      file_ = nullptr;
      fail("cannot create " + partial_.name());
    }
  }
  FitsOutput(const FitsOutput&) = delete;
  FitsOutput& operator=(const FitsOutput&) = delete;
  ~FitsOutput() {
    if (file_ != nullptr) {
      int ignored = 0;
      fits_close_file(file_, &ignored);
    }
    fits_clear_errmsg();  // CFITSIO's message stack is never printed
  }

  [[nodiscard]] fitsfile* get() const noexcept { return file_; }
  int* status() noexcept {
    errno = 0;  // so that fail() reports only what the call itself met
    return &status_;
  }
  // Throws after a CFITSIO call that set the status.
  void check(const std::string& what) {
    if (status_ != 0) fail("cannot " + what);
  }

  void commit() {
    // CFITSIO's stdio driver can lose the last records to a short write without an error
    // (seen under a file size limit): the size on disk is checked against the HDUs' end.
    LONGLONG header = 0, data = 0, end = 0;
    fits_get_hduaddrll(file_, &header, &data, &end, status());
    check("find the end of the FITS file");
    int* s = status();
    fits_close_file(file_, s);
    file_ = nullptr;
    check("close the FITS file");
    const int close_errno = errno;  // EFBIG or ENOSPC where the driver met one
    std::error_code ec;
    const auto written = fs::file_size(partial_.path(), ec);
    if (ec || written != static_cast<std::uintmax_t>(end)) {
      status_ = WRITE_ERROR;
      errno = close_errno;
      fail("cannot write the FITS file (" + std::to_string(ec ? 0 : written) + " of " +
           std::to_string(end) + " bytes reached the disk)");
    }
    try {
      partial_.commit();
    } catch (const RuntimeFailure& e) {
      throw RuntimeFailure(partial_.target().string() + ": " + e.what());
    }
  }

 private:
  // CFITSIO's status text; a failed system call's reason where CFITSIO met one, since its
  // text alone ("error writing to FITS file") does not say that the disk is full.
  [[noreturn]] void fail(const std::string& what) {
    const int system_error = errno;
    char text[FLEN_STATUS] = {};
    fits_get_errstatus(status_, text);
    std::string why = text;
    if (system_error == ENOSPC || system_error == EFBIG || system_error == EDQUOT ||
        system_error == EIO || system_error == EROFS || system_error == EACCES)
      why += " (" + std::string(std::strerror(system_error)) + ")";
    fits_clear_errmsg();
    throw RuntimeFailure(partial_.target().string() + ": " + what + ": " + why);
  }

  // Declared first, destroyed last: CFITSIO closes the file before it is removed.
  PartialFile partial_;
  fitsfile* file_ = nullptr;
  int status_ = 0;
};

// The fewest significant digits that read back as the same double, so that a keyword's
// value is exact and still reads 0.031 rather than 0.031000000000000000.
int round_trip_digits(double value) {
  for (int digits = 1; digits < 17; ++digits) {
    char text[40];
    std::snprintf(text, sizeof text, "%.*G", digits, value);
    if (std::strtod(text, nullptr) == value) return digits;
  }
  return 17;
}

class Header {
 public:
  explicit Header(FitsOutput& out) : out_(out) {}
  void real(const char* key, double value, const char* comment) {
    fits_write_key_dbl(out_.get(), key, value, -round_trip_digits(value), comment, out_.status());
    out_.check(std::string("write keyword ") + key);
  }
  void integer(const char* key, long long value, const char* comment) {
    fits_write_key_lng(out_.get(), key, value, comment, out_.status());
    out_.check(std::string("write keyword ") + key);
  }
  // Long values continue on CONTINUE cards (the convention astropy reads).
  void text(const char* key, const std::string& value, const char* comment) {
    const std::string v = ascii(value);
    fits_write_key_longstr(out_.get(), key, v.c_str(), comment, out_.status());
    out_.check(std::string("write keyword ") + key);
  }
  // One card; a key longer than eight characters becomes HIERARCH KEY (astropy reads it as KEY).
  void short_text(const std::string& key, const std::string& value, const char* comment) {
    fits_write_key_str(out_.get(), key.c_str(), ascii(value).c_str(), comment, out_.status());
    out_.check("write keyword " + key);
  }
  // Split over as many HISTORY cards as it needs.
  void history(const std::string& line) {
    fits_write_history(out_.get(), ascii(line).c_str(), out_.status());
    out_.check("write HISTORY");
  }
  void date() {
    fits_write_date(out_.get(), out_.status());  // DATE: now, UTC
    out_.check("write keyword DATE");
  }
  void comment(const std::string& line) {
    fits_write_comment(out_.get(), ascii(line).c_str(), out_.status());
    out_.check("write COMMENT");
  }

 private:
  FitsOutput& out_;
};

constexpr double arcsec_per_radian = 206264.80624709636;

void write_psf_keywords(Header& h, hid_t psf, hid_t root, const FitsExportRequest& request) {
  if (const auto units = read_text(psf, "units"); units && *units == "photo-electrons")
    h.text("BUNIT", "electron", "photo-electrons per pixel");
  if (const auto v = read_text(psf, "normalization")) {
    const std::string comment = *v == "photons"
                                    ? "scaled to " + flag(Option::photons) + ", then noise (BUNIT)"
                                    : "psfsim " + flag(Option::normalize) + ": peak, sum or none";
    h.text("NORMALIZ", *v, comment.c_str());
  }
  if (const auto v = read_number(psf, "samples"))
    h.integer("SAMPLES", static_cast<long long>(*v), "pupil samples across the diameter (N)");
  if (const auto v = read_number(psf, "padded_size"))
    h.integer("PADSIZE", static_cast<long long>(*v), "padded FFT size (M)");
  if (const auto v = read_text(psf, "propagation"))
    h.text("PROPAGAT", *v, "propagation to the focal plane: fft or mft");
  const auto arcsec = read_number(psf, "pixel_scale_arcsec");
  if (arcsec) {
    h.real("PIXELSCL", *arcsec, "[arcsec/pix] scale per detector pixel");
    h.text("PIXUNIT", "arcsec", "units of PIXELSCL");
  }
  if (const auto v = read_number(psf, "pixel_scale_lambda_over_d"))
    h.real("PIXSCLLD", *v, "[lambda/D per pix] at the reference wavelength");
  if (const auto v = read_number(psf, "pixel_pitch_m"))
    h.real("PIXPITCH", *v, "[m] detector pixel pitch");
  if (const auto v = read_number(psf, "fnumber")) h.real("FNUMBER", *v, "focal ratio");
  const auto wavelength = read_number(psf, "wavelength_m");
  const auto diameter = read_number(psf, "diameter_m");
  if (wavelength) h.real("WAVELEN", *wavelength, "[m] (reference) wavelength");
  if (diameter) h.real("DIAM", *diameter, "[m] pupil diameter");
  if (wavelength && diameter && *diameter > 0)
    h.real("DIFFLMT", arcsec_per_radian * *wavelength / *diameter,
           "[arcsec] diffraction limit lambda/D");
  // POPPY's meaning: OVERSAMP is the image's sampling over detector pixels (psfsim's frames
  // are on detector pixels), DET_SAMP the sub-pixels per pixel and axis it integrated.
  h.integer("OVERSAMP", 1, "these data are on detector pixels");
  h.integer("DET_SAMP", static_cast<long long>(read_number(psf, "oversample").value_or(1.0)),
            "detector sub-pixels per pixel and axis, summed");
  h.integer("NWAVES", spectrum_size(root, psf), "number of wavelengths computed");
  h.text("ORIGIN", "psfsim", "software that wrote this file");
  h.text("CREATOR", std::string("psfsim ") + PSFSIM_VERSION + " (" + git_commit() + ")",
         "the exporting psfsim");
  if (const auto v = read_text(root, "psfsim_version"))
    h.text("SRCVERS", *v, "psfsim version that computed the PSFs");
  h.text("SRCFILE", request.input.filename().string(), "the psfsim HDF5 file exported");
  if (const auto v = read_text(root, "created_utc"))
    h.text("SRCDATE", *v, "UTC creation time of SRCFILE");
  h.date();
  h.comment("NAXIS1 = x, NAXIS2 = y, NAXIS3 = frame: the axes of /psf, reversed;");
  h.comment("frame b is row b of the PARAMETERS table.");
  h.history("psfsim command: " + request.command_line);
  if (const auto v = read_text(root, "command_line")) h.history("SRCFILE command: " + *v);
}

// A field run's frames as a PSF library, in the keywords stpsf's CreatePSFLibrary writes
// (which photutils' GriddedPSFModel is built from): NUM_PSFS, and DET_YX<i>, frame i's
// position as the text "(y, x)". The position is in detector pixels from the field's centre
// where the file gives the field's radius and the pixel scale on the sky, else in units of
// the field radius; FIELDUNI says which.
void write_field_library(Header& h, hid_t psf, std::span<const double> xs,
                         std::span<const double> ys) {
  h.integer("NUM_PSFS", static_cast<long long>(xs.size()), "PSFs in the library (frames)");
  const auto radius = read_number(psf, "field_radius_arcsec");
  const auto pixel = read_number(psf, "pixel_scale_arcsec");
  const bool pixels = radius && pixel && *pixel > 0;
  const double scale = pixels ? *radius / *pixel : 1.0;
  if (radius) h.real("FIELDRAD", *radius, "[arcsec] field radius (field_x = 1)");
  h.short_text("FIELDUNI", pixels ? "pixel" : "field radius",
               pixels ? "DET_YX: detector pixels from the field centre"
                      : "DET_YX: units of the field radius");
  const auto number = [](double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.*G", round_trip_digits(v), v);
    return std::string(text);
  };
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const std::string key = "DET_YX" + std::to_string(i);
    h.short_text(key, "(" + number(ys[i] * scale) + ", " + number(xs[i] * scale) + ")",
                 "(y, x) field position of this PSF");
  }
}

// /psf in blocks of at most `budget` bytes, whole frames where a frame fits, else rows: the
// HDF5 (frame, y, x) row-major order is the FITS element order, so each block follows the last.
void copy_psf(const Input& in, hid_t psf, bool single, const std::array<hsize_t, 3>& dims,
              FitsOutput& out) {
  constexpr hsize_t budget = hsize_t{32} << 20;
  const hsize_t value_bytes = single ? 4 : 8;
  const hsize_t row_bytes = std::max<hsize_t>(dims[2] * value_bytes, 1);
  const hsize_t frame_rows = dims[1];
  const hsize_t rows_per_block = std::max<hsize_t>(budget / row_bytes, 1);
  const bool whole_frames = rows_per_block >= frame_rows;
  const hsize_t frames_per_block =
      whole_frames ? std::max<hsize_t>(rows_per_block / std::max<hsize_t>(frame_rows, 1), 1) : 1;
  const h5::Handle file_space(H5Dget_space(psf), H5Sclose, "read the shape of /psf");
  const hid_t memory_type = single ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
  std::vector<unsigned char> buffer;
  LONGLONG first = 1;  // FITS counts elements from 1
  const auto copy = [&](const std::array<hsize_t, 3>& start, const std::array<hsize_t, 3>& count) {
    const hsize_t n = count[0] * count[1] * count[2];
    if (n == 0) return;
    buffer.resize(static_cast<std::size_t>(n * value_bytes));
    const h5::Handle memory_space(H5Screate_simple(1, &n, nullptr), H5Sclose, "create a dataspace");
    if (H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                            nullptr) < 0 ||
        H5Dread(psf, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT,
                buffer.data()) < 0) {
      H5Eclear2(H5E_DEFAULT);
      in.fail("cannot read /psf (frames " + std::to_string(start[0]) + " to " +
              std::to_string(start[0] + count[0] - 1) + ")");
    }
    fits_write_img(out.get(), single ? TFLOAT : TDOUBLE, first, static_cast<LONGLONG>(n),
                   buffer.data(), out.status());
    out.check("write the image");
    first += static_cast<LONGLONG>(n);
  };
  if (whole_frames) {
    for (hsize_t b = 0; b < dims[0]; b += frames_per_block)
      copy({b, 0, 0}, {std::min(frames_per_block, dims[0] - b), dims[1], dims[2]});
  } else {
    for (hsize_t b = 0; b < dims[0]; ++b)
      for (hsize_t r = 0; r < frame_rows; r += rows_per_block)
        copy({b, r, 0}, {1, std::min(rows_per_block, frame_rows - r), dims[2]});
  }
}

struct Column {
  std::string name;
  std::string unit;
  std::vector<double> values;
  // Where the column goes: Seidel terms by (l, m), then Zernike terms by j, as psfsim orders
  // terms (/parameters' `kind`, `l`, `m`, `j`); anything else after them, by name.
  std::tuple<int, double, double> order;
};

std::tuple<int, double, double> term_order(hid_t set) {
  const std::string kind = read_text(set, "kind").value_or("");
  if (const auto l = read_number(set, "l"); kind == "seidel" && l)
    return {0, *l, read_number(set, "m").value_or(0.0)};
  if (const auto j = read_number(set, "j"); kind == "zernike" && j) return {1, *j, 0.0};
  return {2, 0.0, 0.0};
}

// /parameters/<term>, in term order; none when the file has no /parameters.
std::vector<Column> read_parameters(const Input& in, hid_t root, hsize_t frames) {
  std::vector<Column> columns;
  if (H5Lexists(root, "parameters", H5P_DEFAULT) <= 0) return columns;
  const h5::Handle group(H5Gopen2(root, "parameters", H5P_DEFAULT), H5Gclose, "open /parameters");
  H5G_info_t info{};
  if (H5Gget_info(group.get(), &info) < 0) in.fail("cannot read /parameters");
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    const ssize_t length = H5Lget_name_by_idx(group.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i,
                                              nullptr, 0, H5P_DEFAULT);
    if (length <= 0) in.fail("cannot read /parameters");
    std::string name(static_cast<std::size_t>(length), '\0');
    H5Lget_name_by_idx(group.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(),
                       name.size() + 1, H5P_DEFAULT);
    const hid_t id = H5Dopen2(group.get(), name.c_str(), H5P_DEFAULT);
    if (id < 0) {
      H5Eclear2(H5E_DEFAULT);
      in.fail("/parameters/" + name + " is not a dataset");
    }
    const h5::Handle set(id, H5Dclose, "open /parameters/" + name);
    const h5::Handle space(H5Dget_space(set.get()), H5Sclose, "read a dataset's shape");
    if (H5Sget_simple_extent_ndims(space.get()) != 1 ||
        static_cast<hsize_t>(H5Sget_simple_extent_npoints(space.get())) != frames)
      in.fail("/parameters/" + name + " does not hold one value per frame of /psf (" +
              std::to_string(frames) + ")");
    Column c{name, read_text(set.get(), "units").value_or(""), {}, term_order(set.get())};
    c.values.resize(static_cast<std::size_t>(frames));
    if (frames > 0 &&
        H5Dread(set.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, c.values.data()) < 0) {
      H5Eclear2(H5E_DEFAULT);
      in.fail("cannot read /parameters/" + name);
    }
    columns.push_back(std::move(c));
  }
  // HDF5 lists the datasets by name (Z10 before Z4); stable, so equal keys keep that order.
  std::stable_sort(columns.begin(), columns.end(),
                   [](const Column& a, const Column& b) { return a.order < b.order; });
  return columns;
}

void write_parameters(std::vector<Column>& columns, hsize_t frames, FitsOutput& out) {
  std::vector<char*> names, forms, units;
  std::string double_form = "1D";
  for (Column& c : columns) {
    names.push_back(c.name.data());
    forms.push_back(double_form.data());
    units.push_back(c.unit.data());
  }
  fits_create_tbl(out.get(), BINARY_TBL, static_cast<LONGLONG>(frames),
                  static_cast<int>(columns.size()), names.data(), forms.data(), units.data(),
                  "PARAMETERS", out.status());
  out.check("create the PARAMETERS table");
  // Every run file has /parameters, a term-free run's empty: then a table of no columns, so
  // that the file's layout does not depend on the terms.
  Header h(out);
  h.comment("One row per frame (NAXIS3 of the primary HDU), a column per phase term:");
  h.comment("Sl_m: Seidel W rho^l cos^m(phi); Zj: Noll Zernike j, RMS-normalized.");
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (frames == 0) break;
    fits_write_col(out.get(), TDOUBLE, static_cast<int>(c + 1), 1, 1, static_cast<LONGLONG>(frames),
                   columns[c].values.data(), out.status());
    out.check("write the PARAMETERS column " + columns[c].name);
  }
}

}  // namespace

FitsExportSummary export_fits(const FitsExportRequest& request) {
  const Input in(request.input);
  // The input first: a file that cannot be exported costs no output check.
  std::error_code ec;
  if (fs::is_directory(request.input, ec)) in.fail("is a folder, not a file");
  if (!std::ifstream(request.input, std::ios::binary))
    in.fail(std::string("cannot open it: ") + std::strerror(errno));
  h5::silence_library_errors();
  if (H5Fis_hdf5(request.input.c_str()) <= 0) {
    H5Eclear2(H5E_DEFAULT);
    in.fail("not an HDF5 file");
  }
  const hid_t file_id = H5Fopen(request.input.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file_id < 0) {
    H5Eclear2(H5E_DEFAULT);
    in.fail("cannot open it as HDF5");
  }
  const h5::Handle file(file_id, H5Fclose, "open " + in.name());
  const hid_t psf_id = H5Lexists(file.get(), "psf", H5P_DEFAULT) > 0
                           ? H5Dopen2(file.get(), "psf", H5P_DEFAULT)
                           : H5I_INVALID_HID;
  if (psf_id < 0) {
    H5Eclear2(H5E_DEFAULT);
    in.fail("no /psf dataset to export (a sweep file, or a run that stored no frames)");
  }
  const h5::Handle psf(psf_id, H5Dclose, "open /psf");
  const h5::Handle type(H5Dget_type(psf.get()), H5Tclose, "read the type of /psf");
  const std::size_t value_size = H5Tget_size(type.get());
  const h5::Handle space(H5Dget_space(psf.get()), H5Sclose, "read the shape of /psf");
  std::array<hsize_t, 3> dims{};
  if (H5Tget_class(type.get()) != H5T_FLOAT || (value_size != 4 && value_size != 8) ||
      H5Sget_simple_extent_ndims(space.get()) != 3)
    in.fail("/psf is not a (frames, y, x) float32 or float64 array");
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  const bool single = value_size == 4;
  std::vector<Column> columns = read_parameters(in, file.get(), dims[0]);

  const InputFile input{"the input", request.input};
  check_output_path(request.output, request.force, flag(Option::fits), {&input, 1});
  FitsOutput out(request.output, request.force);
  // FITS's NAXIS1 is the fastest axis: x, then y, then the frame.
  LONGLONG naxes[3] = {static_cast<LONGLONG>(dims[2]), static_cast<LONGLONG>(dims[1]),
                       static_cast<LONGLONG>(dims[0])};
  fits_create_imgll(out.get(), single ? FLOAT_IMG : DOUBLE_IMG, 3, naxes, out.status());
  out.check("create the primary HDU");
  Header header(out);
  write_psf_keywords(header, psf.get(), file.get(), request);
  const auto column = [&](const char* name) -> const Column* {
    for (const Column& c : columns)
      if (c.name == name) return &c;
    return nullptr;
  };
  if (const Column* x = column("field_x"), *y = column("field_y"); x && y)
    write_field_library(header, psf.get(), x->values, y->values);
  copy_psf(in, psf.get(), single, dims, out);
  write_parameters(columns, dims[0], out);
  out.commit();
  return {dims[0], dims[1], dims[2], single ? -32 : -64, columns.size()};
}

}  // namespace psfsim

#pragma once
// `psfsim export`: a psfsim file's /psf as a FITS cube with the keywords astronomers expect
// (docs/spec.md §7), its /parameters as a binary table. CFITSIO stays behind this header.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace psfsim {

struct FitsExportRequest {
  std::filesystem::path input;   // a psfsim HDF5 file with /psf
  std::filesystem::path output;  // the FITS file; appears only when complete
  bool force = false;            // overwrite an existing output
  std::string command_line;      // recorded as HISTORY
};

struct FitsExportSummary {
  std::uint64_t frames = 0;
  std::uint64_t height = 0;
  std::uint64_t width = 0;
  int bitpix = 0;              // -32 (float32) or -64 (float64)
  std::size_t parameters = 0;  // columns of the PARAMETERS table
};

// Throws InputError (exit 2) when the input cannot be read or has no /psf, or the output
// path is refused; RuntimeFailure (exit 3) when the FITS file cannot be written.
FitsExportSummary export_fits(const FitsExportRequest& request);

}  // namespace psfsim

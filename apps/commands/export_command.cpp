#include "export_command.hpp"

#include <cstdio>

#include "psfsim/fits_export.hpp"

namespace psfsim::app {

void add_export_options(CLI::App& app, ExportOptions& options) {
  app.add_option("input", options.input, "psfsim HDF5 file with /psf")
      ->required()
      ->type_name("IN.h5");
  app.add_option("--fits", options.fits, "FITS file to write; appears only when complete")
      ->required()
      ->type_name("OUT.fits");
  app.add_flag("--force", options.force, "Replace an existing output (a regular file only)");
  app.footer(
      "The primary HDU holds /psf (NAXIS1 = x, NAXIS2 = y, NAXIS3 = frame; BITPIX -32 or -64\n"
      "as stored) with PIXELSCL, WAVELEN, DIFFLMT, OVERSAMP, NWAVES and psfsim's attributes\n"
      "as keywords; the PARAMETERS binary table holds /parameters, one row per frame (see\n"
      "docs/output.md). Exit codes: 0 success, 2 bad input (no such file, no /psf), 3 the\n"
      "FITS file could not be written.");
}

void execute_export(const ExportOptions& options, const std::string& command_line) {
  const FitsExportSummary s = export_fits({options.input, options.fits, options.force,
                                           command_line});
  std::printf("psfsim: wrote %s: %llu x %llu x %llu %s, %zu parameter column%s\n",
              options.fits.c_str(), static_cast<unsigned long long>(s.frames),
              static_cast<unsigned long long>(s.height), static_cast<unsigned long long>(s.width),
              s.bitpix == -32 ? "float32" : "float64", s.parameters,
              s.parameters == 1 ? "" : "s");
}

}  // namespace psfsim::app

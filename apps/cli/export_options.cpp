#include "export_options.hpp"

#include <CLI/CLI.hpp>

#include "option_setup.hpp"

namespace psfsim::app {

void add_export_options(CLI::App& app, ExportOptions& o) {
  OptionBindings b;
  b.bind(Option::export_input, o.input);
  b.bind(Option::fits, o.fits);
  b.bind(Option::force, o.force);
  add_options(app, Command::export_fits, b);
  app.footer(
      "The primary HDU holds /psf (NAXIS1 = x, NAXIS2 = y, NAXIS3 = frame; BITPIX -32 or -64\n"
      "as stored) with PIXELSCL, WAVELEN, DIFFLMT, OVERSAMP, NWAVES and psfsim's attributes\n"
      "as keywords; the PARAMETERS binary table holds /parameters, one row per frame (see\n"
      "docs/output.md). Exit codes: 0 success, 2 bad input (no such file, no /psf), 3 the\n"
      "FITS file could not be written.");
}

}  // namespace psfsim::app

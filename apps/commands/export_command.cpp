#include "export_command.hpp"

#include <cstdio>

#include "psfsim/fits_export.hpp"

namespace psfsim::app {

void execute_export(const ExportOptions& options, const std::string& command_line) {
  const FitsExportSummary s =
      export_fits({options.input, options.fits, options.force, command_line});
  std::printf("psfsim: wrote %s: %llu x %llu x %llu %s, %zu parameter column%s\n",
              options.fits.c_str(), static_cast<unsigned long long>(s.frames),
              static_cast<unsigned long long>(s.height), static_cast<unsigned long long>(s.width),
              s.bitpix == -32 ? "float32" : "float64", s.parameters, s.parameters == 1 ? "" : "s");
}

}  // namespace psfsim::app

#include "aperture_options.hpp"

#include "option_checks.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/pupil_maps.hpp"
#include "psfsim/run_plan.hpp"

namespace psfsim::app {

void add_aperture_options(CLI::App& run, ApertureOptions& o) {
  run.add_option("--spiders", o.spiders,
                 "COUNT radial struts of WIDTH (a fraction of D) from the axis to the rim, the "
                 "first at ANGLE degrees from +x (default 0), evenly spaced, e.g. 4,0.01,45")
      ->type_name("COUNT,WIDTH[,ANGLE]");
  run.add_option("--hex-segments", o.hex_segments,
                 "Segmented primary replacing the circle: 1 + 3 RINGS (RINGS + 1) hexagons whose "
                 "outermost vertices touch the rim, GAP (a fraction of D) between them; "
                 "nocenter drops the central one, e.g. 2,0.005,nocenter")
      ->type_name("RINGS,GAP[,nocenter]");
  run.add_option("--pupil-amplitude", o.pupil_amplitude,
                 "N x N amplitude map multiplying the aperture (row = y, column = x): HDF5 "
                 "(default: the file's only root dataset), .npy or FITS; a 3-D stack holds one "
                 "map per frame")
      ->type_name("FILE[:DATASET]");
  run.add_option("--pupil-opd", o.pupil_opd,
                 "N x N OPD map added to the phase, in --opd-units; formats and stacks as "
                 "--pupil-amplitude")
      ->type_name("FILE[:DATASET]");
  run.add_option("--opd-units", o.opd_units,
                 "Units of the --pupil-opd map: waves at the reference wavelength, or nm or um "
                 "(with a wavelength)")
      ->check(one_of({"waves", "nm", "um"}))
      ->capture_default_str();
}

void apply(const ApertureOptions& o, RunSpec& s) {
  ApertureSpec& a = s.aperture;
  if (!o.spiders.empty()) a.spiders = parse_spiders(o.spiders, "--spiders");
  if (!o.hex_segments.empty())
    a.hex_segments = parse_hex_segments(o.hex_segments, "--hex-segments");
  a.amplitude = o.pupil_amplitude;
  a.opd = o.pupil_opd;
  a.opd_units = *parse_aberration_units(o.opd_units);
  validate(s);  // the aperture's own checks come before any file is opened
  const std::size_t stacked = pupil_map_frames(a);
  if (stacked == 0) return;
  if (!s.vary.empty() || !s.random.empty() || !s.frames_file.empty())
    throw InputError("--pupil-amplitude/--pupil-opd: a stack of one map per frame defines the "
                     "batch; --vary, --random and --frames cannot define it too");
  s.frames.assign(stacked, s.frames.front());
}

}  // namespace psfsim::app

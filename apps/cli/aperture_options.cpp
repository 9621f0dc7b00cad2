#include "aperture_options.hpp"

#include "psfsim/errors.hpp"
#include "psfsim/pupil_maps.hpp"
#include "psfsim/run_plan.hpp"

namespace psfsim::app {

void bind_options(ApertureOptions& o, OptionBindings& b) {
  b.bind(Option::spiders, o.spiders);
  b.bind(Option::hex_segments, o.hex_segments);
  b.bind(Option::pupil_amplitude, o.pupil_amplitude);
  b.bind(Option::pupil_opd, o.pupil_opd);
  b.bind(Option::opd_units, o.opd_units);
}

void apply(const ApertureOptions& o, RunSpec& s) {
  ApertureSpec& a = s.aperture;
  if (!o.spiders.empty()) a.spiders = parse_spiders(o.spiders, flag(Option::spiders));
  if (!o.hex_segments.empty())
    a.hex_segments = parse_hex_segments(o.hex_segments, flag(Option::hex_segments));
  a.amplitude = o.pupil_amplitude;
  a.opd = o.pupil_opd;
  a.opd_units = *parse_aberration_units(o.opd_units);
  validate(s);  // the aperture's own checks come before any file is opened
  const std::size_t stacked = pupil_map_frames(a);
  if (stacked == 0) return;
  if (!s.vary.empty() || !s.random.empty() || !s.frames_file.empty() || !s.field.grid_text.empty())
    throw InputError(flag(Option::pupil_amplitude) + "/" + flag(Option::pupil_opd) +
                     ": a stack of one map per frame defines the batch; " + flag(Option::vary) +
                     ", " + flag(Option::random) + ", " + flag(Option::frames) + " and " +
                     flag(Option::field_grid) + " cannot define it too");
  s.frames.assign(stacked, s.frames.front());
}

}  // namespace psfsim::app

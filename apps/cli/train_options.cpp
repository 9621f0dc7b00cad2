#include "train_options.hpp"

#include <cmath>
#include <complex>
#include <numbers>

#include "psfsim/errors.hpp"
#include "psfsim/pupil_maps.hpp"
#include "psfsim/text_fields.hpp"

namespace psfsim::app {
namespace {

// Finer than this, a spot's samples outnumber any pupil's.
constexpr double max_mask_sampling = 1024.0;

void read_mask_map(FocalMask& m, const std::string& option) {
  const PupilMap map = read_pupil_map(m.map, option);
  if (map.stacked)
    throw InputError(option + " " + map.file + ": a mask map has 2 dimensions, not a stack");
  auto values = std::make_shared<MaskMap>();
  values->rows = map.rows;
  values->columns = map.columns;
  values->values.reserve(map.values.size());
  for (const double v : map.values)
    values->values.push_back(m.map_is_phase ? std::polar(1.0, 2 * std::numbers::pi * v)
                                            : std::complex<double>(v));
  m.map_values = std::move(values);
}

}  // namespace

void bind_options(TrainOptions& o, OptionBindings& b) {
  b.bind(Option::coronagraph, o.coronagraph);
  b.bind(Option::lyot_stop, o.lyot_stop);
  b.bind(Option::lyot_spiders, o.lyot_spiders);
  b.bind(Option::mask_sampling, o.mask_sampling);
  b.bind(Option::plane, o.planes);
}

void apply(const TrainOptions& o, RunSpec& s) {
  OpticalTrain& t = s.train;
  const bool shorthand = !o.coronagraph.empty() || !o.lyot_stop.empty() || !o.lyot_spiders.empty();
  if (shorthand && !o.planes.empty())
    throw InputError(flag(Option::plane) + " writes the whole train; " + flag(Option::coronagraph) +
                     ", " + flag(Option::lyot_stop) + " and " + flag(Option::lyot_spiders) +
                     " cannot be added to it");
  if (!o.lyot_spiders.empty() && o.lyot_stop.empty())
    throw InputError(flag(Option::lyot_spiders) + ": needs " + flag(Option::lyot_stop));
  if (!o.coronagraph.empty())
    t.planes.emplace_back(parse_focal_mask(o.coronagraph, flag(Option::coronagraph)));
  if (!o.lyot_stop.empty()) {
    PupilStop stop = parse_pupil_stop(o.lyot_stop, flag(Option::lyot_stop));
    if (!o.lyot_spiders.empty())
      stop.spiders = parse_spiders(o.lyot_spiders, flag(Option::lyot_spiders));
    t.planes.emplace_back(stop);
  }
  for (const std::string& p : o.planes) t.planes.push_back(parse_plane(p, flag(Option::plane)));
  if (!(std::isfinite(o.mask_sampling) && o.mask_sampling >= 1.0 &&
        o.mask_sampling <= max_mask_sampling))
    throw InputError(flag(Option::mask_sampling) + " " + format_number(o.mask_sampling) +
                     ": must be a number from 1 to " + format_number(max_mask_sampling));
  t.mask_sampling = o.mask_sampling;
  for (TrainPlane& p : t.planes)
    if (auto* m = std::get_if<FocalMask>(&p); m && m->kind == FocalMask::Kind::map)
      read_mask_map(*m, flag(o.planes.empty() ? Option::coronagraph : Option::plane));
}

}  // namespace psfsim::app

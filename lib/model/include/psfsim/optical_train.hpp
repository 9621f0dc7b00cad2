#pragma once
// An optical train after the entrance pupil (docs/coronagraphy.md): an ordered list of planes
// between the entrance pupil and the detector, as the user wrote them with --coronagraph,
// --lyot-stop, --lyot-spiders and --plane, or a config file's [[plane]] tables. Each plane acts
// on the field of the pupil plane before it: a focal-plane mask is reached by a Fourier
// transform and left by its inverse, a stop multiplies the field, and a distance propagates it
// by the angular spectrum. How each is computed is train_plan.hpp's.
#include <complex>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "psfsim/aperture_spec.hpp"

namespace psfsim {

// A focal-plane mask's map as io read it: row-major rows x columns amplitude transmissions (a
// phase map already turned into exp(2 pi i phase)).
struct MaskMap {
  std::size_t rows = 0;
  std::size_t columns = 0;
  std::vector<std::complex<double>> values;
};

// A focal-plane mask, centred on the optical axis; lengths in lambda_ref/D.
struct FocalMask {
  enum class Kind { spot, vortex, four_quadrant, map };
  Kind kind = Kind::spot;
  double radius = 0.0;        // spot: its radius
  double transmission = 0.0;  // spot: intensity transmission inside it (0: opaque)
  int charge = 0;             // vortex: the even topological charge l, exp(i l phi)
  // map: FILE[:DATASET] of a 2-D array, real (a phase in waves) or complex (the amplitude
  // transmission), `sampling` lambda_ref/D per sample, centred on the optical axis; outside
  // the map the mask is clear.
  std::string map;
  double map_sampling = 0.0;
  bool map_is_phase = false;
  std::shared_ptr<const MaskMap> map_values{};  // read by io's read_mask_map (null until then)
};

// A stop in a pupil plane: a circle of `diameter` (a fraction of the entrance pupil's D) less a
// central obscuration of `obscuration` (also of D) and spiders (their width a fraction of D).
struct PupilStop {
  double diameter = 1.0;
  double obscuration = 0.0;
  std::optional<Spiders> spiders;
};

// Free propagation by `metres` (the angular spectrum), to a plane at that distance.
struct Distance {
  double metres = 0.0;
};

using TrainPlane = std::variant<FocalMask, PupilStop, Distance>;

// The default spacing of a mask's samples: this many per lambda_ref/D.
inline constexpr double default_mask_sampling = 16.0;

struct OpticalTrain {
  std::vector<TrainPlane> planes;                // in the order light meets them
  double mask_sampling = default_mask_sampling;  // --mask-sampling: samples per lambda_ref/D

  [[nodiscard]] bool empty() const noexcept { return planes.empty(); }
  [[nodiscard]] bool has_focal_mask() const noexcept;
};

// --coronagraph TEXT: lyot:RADIUS[,TRANSMISSION], vortex:CHARGE, fqpm, or
// map:FILE[:DATASET],SAMPLING[,phase]. Throws InputError naming `option` and the text.
[[nodiscard]] FocalMask parse_focal_mask(std::string_view text, std::string_view option);
// --lyot-stop DIAMETER[,OBSCURATION], both fractions of the pupil's diameter.
[[nodiscard]] PupilStop parse_pupil_stop(std::string_view text, std::string_view option);
// --plane focal:MASK, pupil:STOP[;SPIDERS] or distance:LENGTH (the stop and spiders as
// --lyot-stop and --spiders write them).
[[nodiscard]] TrainPlane parse_plane(std::string_view text, std::string_view option);

// The options' text for each, which parses back to the same value.
[[nodiscard]] std::string to_string(const FocalMask& m);
[[nodiscard]] std::string to_string(const PupilStop& s);
[[nodiscard]] std::string to_string(const TrainPlane& p);  // --plane's form
// "focal", "pupil" or "distance".
[[nodiscard]] std::string_view plane_kind(const TrainPlane& p) noexcept;

}  // namespace psfsim

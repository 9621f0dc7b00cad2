#pragma once
// The physical options of `psfsim run` (docs/spec.md §6): units, spectrum, propagation, detector.
#include <cstdint>
#include <optional>
#include <string>

#include "option_setup.hpp"
#include "psfsim/optics_spec.hpp"

namespace psfsim::app {

// Raw values as CLI11 fills them: lengths and angles stay text until their units are read.
struct OpticsOptions {
  std::string wavelength;
  std::optional<double> fnumber;
  std::string pixel_pitch;
  std::string diameter;
  std::string pixel_scale;
  std::string wavelengths;
  std::string band;
  std::string aberration_units = "waves";
  std::string propagation = "auto";
  int oversample = 1;
  std::string jitter;
  std::string source_offset;
  std::string defocus_distance;
  std::optional<double> photons;
  double background = 0.0;
  double read_noise = 0.0;
  std::optional<std::uint64_t> noise_seed;  // 0 when not given
};

void bind_options(OpticsOptions& options, OptionBindings& bindings);
// Throws InputError naming the option whose value or unit is wrong.
[[nodiscard]] OpticsSpec to_optics_spec(const OpticsOptions& options);

}  // namespace psfsim::app

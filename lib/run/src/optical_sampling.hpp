#pragma once
// docs/spec.md §6 for one run: from the pupil, physical, spectrum and detector options to the pixel
// scale, the frame, the spectrum's lines, the detector and the propagation that computes it.
#include <string>

#include "psfsim/run_spec.hpp"

namespace psfsim {

// Fills `g`'s sampling fields. `padded` is M from --pad-factor/--padded-size (docs/spec.md §1),
// used
// when no physical pixel scale is given. Throws InputError naming the options at fault.
void derive_sampling(const RunSpec& spec, int padded, Geometry& g);

}  // namespace psfsim

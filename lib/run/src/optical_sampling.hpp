#pragma once
// docs/spec.md §6 for one run: from the pupil, physical, spectrum and detector options to the pixel
// scale, the frame, the spectrum's lines, the detector and the propagation that computes it.
#include <string>

#include "psfsim/pupil_sampling.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim {

// Fills `g`'s sampling fields. `padded` is M from --pad-factor/--padded-size (docs/spec.md §1),
// used
// when no physical pixel scale is given. Throws InputError naming the options at fault.
void derive_sampling(const RunSpec& spec, int padded, Geometry& g);

// The source offset and the defocus of a derived Geometry, as SampledPupil adds them to the
// OPD (docs/physical-optics.md).
[[nodiscard]] StaticPupilTerms static_pupil_terms(const Geometry& g);

}  // namespace psfsim

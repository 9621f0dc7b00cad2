#pragma once
// docs/spec.md §6 for one run: from the pupil, physical, spectrum and detector options to the pixel
// scale, the frame, the spectrum's lines, the detector and the propagation that computes it.
#include <string>

#include "psfsim/host_cores.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim {

// Fills `g`'s sampling fields. `padded` is M from --pad-factor/--padded-size (docs/spec.md §1),
// used
// when no physical pixel scale is given. Throws InputError naming the options at fault.
void derive_sampling(const RunSpec& spec, int padded, Geometry& g);

// The faster on `backend` of the FFT (M x M, pruned rows, cropped to K) and the MFT (two
// products of N x N x K and K x N x K) for one frame, from their operation counts and the
// rates each reaches there: on the CPU, those of its vector units.
[[nodiscard]] Propagation faster_propagation(const std::string& backend, int samples,
                                             int padded, int frame,
                                             CpuVectorUnits cpu = this_cpu_vector_units());

}  // namespace psfsim

#pragma once
// The inputs validate()'s ranges admit but the precision cannot compute, refused before any
// work (docs/physical-optics.md): phases that round by more than 1e-6 waves, MFT kernels
// beyond exact reduction, photon counts and spectra beyond the precision's range.
#include "psfsim/psf_plan.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim {

// The run's shortest wavelength, or 0 when no wavelength is given.
[[nodiscard]] double shortest_wavelength(const Geometry& g);

// Throws InputError naming the option: a frame's phase polynomial rounding by more than
// phase_resolution_waves at the shortest wavelength, an MFT frame edge 2^29 lambda/D off
// axis, a pixel count beyond the precision (--photons, --background, --read-noise).
void check_computable(const RunSpec& spec, const Geometry& g);

// Throws InputError naming --band or --wavelengths where a spectrum's frame weights
// w_k (lambda_ref/lambda_k)^2 times the pupil's (S sum |A|)^2 pass the precision's range.
void check_spectrum_range(const RunSpec& spec, const PsfPlan& plan);

}  // namespace psfsim

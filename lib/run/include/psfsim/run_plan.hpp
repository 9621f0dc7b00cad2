#pragma once
// From a RunSpec to what runs it: the specification validated once, its Geometry derived
// (docs/spec.md §1, §6) and the backend's PsfPlan made, pupil sampled and metrics planned.
#include <string>

#include "psfsim/psf_plan.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim {

// The per-user FFTW wisdom cache: $XDG_CACHE_HOME/psfsim/fftw-wisdom, else
// ~/.cache/psfsim/fftw-wisdom; empty when neither variable gives an absolute folder.
[[nodiscard]] std::string wisdom_cache_path();

// Throws InputError naming the first offending option. Reads no file: --wisdom's path is
// only looked at.
void validate(const RunSpec& spec);
[[nodiscard]] Geometry geometry(const RunSpec& spec);
// Why this run cannot compute the MTF metric, or "" when it can (--metrics all leaves it out
// where it cannot). Throws InputError as geometry() does.
[[nodiscard]] std::string mtf_unavailable(const RunSpec& spec);
// The backend's plan, sampled pupil included: throws InputError for an aperture without samples.
[[nodiscard]] PsfPlan make_plan(const RunSpec& spec, int max_batch);
// The same for a geometry already derived (and its propagation chosen for the backend).
[[nodiscard]] PsfPlan make_plan(const RunSpec& spec, const Geometry& g, int max_batch);

}  // namespace psfsim

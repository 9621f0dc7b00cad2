#pragma once
// docs/spec.md §7's metrics in the units of the frames a backend computes.
#include "psfsim/psf_plan.hpp"
#include "psfsim/run_spec.hpp"
#include "psfsim/train_metrics.hpp"

namespace psfsim {

// Throws InputError naming --metrics, --ee-radii, --mtf-frequencies or --store.
void validate_metrics(const RunSpec& spec, const Geometry& g);
// `plan` is complete but for its metrics (channels, pixel centre, sampled pupil).
[[nodiscard]] MetricsPlan make_metrics_plan(const RunSpec& spec, const Geometry& g,
                                            const PsfPlan& plan);
// The metrics the run computes from the frames (contrast, throughput); empty for none.
// `plan` is the complete plan.
[[nodiscard]] HostMetricsPlan make_host_metrics_plan(const RunSpec& spec, const Geometry& g,
                                                     const PsfPlan& plan);

}  // namespace psfsim

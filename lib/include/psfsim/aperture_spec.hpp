#pragma once
// The pupil beyond the annulus (SPEC §7): spiders, segmented hexagons, amplitude and OPD maps
// from files. Filled by the CLI; turned into the sampled pupil by pupil_facts.
namespace psfsim {

struct ApertureSpec {};

}  // namespace psfsim

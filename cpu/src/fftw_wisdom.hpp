#pragma once
// FFTW wisdom kept in one file for both precisions, so FFTW_MEASURE's planning cost is paid
// once per machine and size rather than once per run. Call with the planner lock held.
#include <string>

namespace psfsim::cpu {

// Imports what the file holds; a missing file is not an error (the first run creates it).
void import_wisdom(const std::string& path);
// Writes the current float and double wisdom to the file, atomically (temporary + rename).
void export_wisdom(const std::string& path);

}  // namespace psfsim::cpu

#pragma once
// FFTW wisdom kept in one file for both precisions. By default it is a per-user cache, so
// that FFTW_MEASURE's planning is paid once per machine and size rather than once per run,
// and so that every later run of a command gets the same plans, hence the same bits. Call
// with the planner lock held.
#include <string>

namespace psfsim::cpu {

struct WisdomFile {
  std::string path;       // empty: no wisdom
  bool is_cache = false;  // the default cache: unreadable or unwritable is not an error
};

// Imports what the file holds; a missing file is not an error (the first run creates it).
void import_wisdom(const WisdomFile& file);
// Merges the file's current wisdom (another process may have added some) with this
// process's, and writes the result atomically (partial file + rename) when it changed. A
// named file that cannot be written costs only planning time in later runs: one warning
// line on stderr (once per file and process), and the run goes on.
void export_wisdom(const WisdomFile& file);

// While it lives, the process holds no wisdom, so that FFTW_ESTIMATE plans by its rules
// alone: FFTW answers an estimate with any measured plan of the same problem it holds,
// which would make an estimate run's bits depend on what ran before it. The process's
// wisdom is given back at the end.
class WisdomSetAside {
 public:
  WisdomSetAside();
  ~WisdomSetAside();
  WisdomSetAside(const WisdomSetAside&) = delete;
  WisdomSetAside& operator=(const WisdomSetAside&) = delete;

 private:
  std::string double_;
  std::string single_;
};

}  // namespace psfsim::cpu

#pragma once
// Work over [0, count) split into one contiguous run per core, the runs on the process's
// workers and the caller's thread (worker_team.hpp): for host passes over frames that need no
// shared state.
#include <algorithm>
#include <cstddef>

#include "psfsim/host_cores.hpp"
#include "psfsim/worker_team.hpp"

namespace psfsim {

// `most` caps the threads (0: one per usable core), for a process that shares its host (MPI ranks).
// A run that throws (out of memory, say) has its exception rethrown here once every run has
// finished, instead of ending the process.
template <typename Work>  // Work(std::size_t first, std::size_t last)
void for_contiguous_runs(std::size_t count, Work&& work, std::size_t most = 0) {
  if (count <= 1 || most == 1) {  // nothing to split: not even the affinity mask is asked for
    work(std::size_t{0}, count);
    return;
  }
  std::size_t cores = static_cast<std::size_t>(usable_cores());
  if (most > 0) cores = std::min(cores, most);
  const std::size_t runs = std::min(count, cores);
  if (runs <= 1) {
    work(std::size_t{0}, count);
    return;
  }
  const std::size_t per = (count + runs - 1) / runs;
  run_on_workers((count + per - 1) / per, [&work, count, per](std::size_t run) {
    work(run * per, std::min(count, run * per + per));
  });
}

}  // namespace psfsim

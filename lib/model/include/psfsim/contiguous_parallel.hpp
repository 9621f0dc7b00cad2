#pragma once
// Work over [0, count) split into one contiguous run per core, each run on its own thread
// (the caller's thread waits): for host passes over frames that need no shared state.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "psfsim/host_cores.hpp"

namespace psfsim {

// `most` caps the threads (0: one per usable core), for a process that shares its host (MPI ranks).
// A run that throws (out of memory, no thread to be had) has its exception rethrown here once
// every thread has finished, instead of ending the process.
template <typename Work>  // Work(std::size_t first, std::size_t last)
void for_contiguous_runs(std::size_t count, Work&& work, std::size_t most = 0) {
  if (count <= 1 || most == 1) {  // nothing to split: not even the affinity mask is asked for
    work(std::size_t{0}, count);
    return;
  }
  std::size_t cores = static_cast<std::size_t>(usable_cores());
  if (most > 0) cores = std::min(cores, most);
  const std::size_t workers = std::min(count, cores);
  if (workers <= 1) {
    work(std::size_t{0}, count);
    return;
  }
  std::exception_ptr failure;
  std::mutex failure_mutex;
  {
    std::vector<std::jthread> team;  // joined however this block ends
    team.reserve(workers);
    const std::size_t per = (count + workers - 1) / workers;
    for (std::size_t w = 0; w < workers; ++w) {
      const std::size_t lo = w * per, hi = std::min(count, lo + per);
      if (lo < hi)
        team.emplace_back([&work, &failure, &failure_mutex, lo, hi] {
          try {
            work(lo, hi);
          } catch (...) {
            const std::lock_guard lock(failure_mutex);
            if (!failure) failure = std::current_exception();
          }
        });
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace psfsim

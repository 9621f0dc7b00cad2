#pragma once
// The process's worker threads for host passes (for_contiguous_runs): started once, on first
// use, and then woken for each pass instead of started anew. Starting and joining a thread
// costs tens of µs on a virtual machine, as much as a pass over a call's frames; a batch's
// calls each run several passes.
#include <cstddef>
#include <functional>

namespace psfsim {

// Runs task(i) for every i in [0, tasks): the calling thread takes tasks itself, and the
// team's idle workers take the others as they wake. Returns once every task has ended;
// rethrows the first exception a task threw. May be called from any thread, from inside a
// task too (the caller then does what no worker takes). A process forked after the team
// started gets a team of its own on its first pass.
void run_on_workers(std::size_t tasks, const std::function<void(std::size_t)>& task);

}  // namespace psfsim

#pragma once
// How the ranks of `mpirun -n R psfsim run` fail together: a step's error is caught on each
// rank, then every rank learns whether any failed, so that all stop at the same point.
#include <exception>
#include <new>
#include <optional>

#include "mpi_world.hpp"
#include "psfsim/errors.hpp"

namespace psfsim::app {

// The error `step` threw, as psfsim's exit codes see it, or none.
template <typename Step>
std::optional<Error> failure_of(Step&& step) {
  try {
    step();
  } catch (const Error& e) {
    return e;
  } catch (const std::bad_alloc&) {
    return RuntimeFailure("out of host memory");
  } catch (const std::exception& e) {
    return RuntimeFailure(e.what());
  }
  return std::nullopt;
}

// Collective. Ends every rank alike when any rank failed: the lowest failing rank throws its
// error (one message, however many ranks found the same bad input), the others a silent one
// (an empty message) with its exit code.
void agree(MpiWorld& world, const std::optional<Error>& failure);

}  // namespace psfsim::app

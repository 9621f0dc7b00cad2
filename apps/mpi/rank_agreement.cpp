#include "rank_agreement.hpp"

namespace psfsim::app {

void agree(MpiWorld& world, const std::optional<Error>& failure) {
  const int first = world.min(failure ? world.rank() : world.size());
  if (first == world.size()) return;
  const int code = world.broadcast(failure ? static_cast<int>(failure->code()) : 0, first);
  if (world.rank() == first) throw *failure;
  throw Error(static_cast<ExitCode>(code), "");
}

}  // namespace psfsim::app

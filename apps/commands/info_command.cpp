#include "info_command.hpp"

#include <hdf5.h>

#include <cstdio>

#include "psfsim/builtin_backends.hpp"
#include "mpi/mpi_world.hpp"
#include "psfsim/build_commit.hpp"
#include "psfsim/build_config.hpp"
#include "psfsim/host_cores.hpp"

namespace psfsim::app {

void print_info() {
  std::printf("psfsim %s (commit %s)\n", PSFSIM_VERSION, git_commit());
  unsigned major = 0, minor = 0, release = 0;
  H5get_libversion(&major, &minor, &release);
  std::printf("HDF5 %u.%u.%u\n", major, minor, release);
  if (usable_cores() < host_cores())
    std::printf("cores: %d (this process is bound to %d)\n", host_cores(), usable_cores());
  else std::printf("cores: %d\n", host_cores());
  std::string compiled;
  std::string missing;
  for (const auto& e : builtin_backends().entries())
    (e.compiled ? compiled : missing) += " " + e.name;
  std::printf("backends compiled in:%s\n", compiled.c_str());
  if (!missing.empty()) std::printf("backends not in this build:%s\n", missing.c_str());
  const std::string mpi = mpi_library_version();
  std::printf("MPI: %s\n", mpi.empty() ? "not in this build"
                                       : ("compiled in, " + mpi + " (docs/scaling.md)").c_str());
  for (const auto& e : builtin_backends().entries()) {
    const std::string why = e.unusable_reason();
    std::printf("\n[%s] %s\n", e.name.c_str(),
                why.empty() ? "usable" : ("not usable: " + why).c_str());
    for (const auto& line : e.describe()) std::printf("  %s\n", line.c_str());
  }
}

}  // namespace psfsim::app

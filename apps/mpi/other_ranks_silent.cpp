#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "mpi_world.hpp"

namespace psfsim::app {

OtherRanksSilent::OtherRanksSilent(const MpiWorld& world) {
  if (world.rank() == 0) return;
  const int null = ::open("/dev/null", O_WRONLY);
  if (null < 0) return;
  saved_out_ = ::dup(STDOUT_FILENO);
  saved_err_ = ::dup(STDERR_FILENO);
  ::dup2(null, STDOUT_FILENO);
  ::dup2(null, STDERR_FILENO);
  ::close(null);
}

OtherRanksSilent::~OtherRanksSilent() {
  if (saved_out_ < 0) return;
  std::cout.flush();
  std::fflush(stdout);
  ::dup2(saved_out_, STDOUT_FILENO);
  ::dup2(saved_err_, STDERR_FILENO);
  ::close(saved_out_);
  ::close(saved_err_);
}

}  // namespace psfsim::app

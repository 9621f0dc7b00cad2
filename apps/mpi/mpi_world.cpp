#include <mpi.h>
#include <time.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "mpi_world.hpp"

namespace psfsim::app {
namespace {

// Set by mpirun (Open MPI), srun with PMIx, or a PMI-1/2 launcher (MPICH, Slurm).
bool started_by_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

// Polls a request with 0.5 ms naps: a blocking MPI wait spins at 100 % of a core.
void wait_sleeping(MPI_Request& request) {
  int done = 0;
  const timespec nap{0, 500'000};
  for (MPI_Test(&request, &done, MPI_STATUS_IGNORE); !done;
       MPI_Test(&request, &done, MPI_STATUS_IGNORE))
    nanosleep(&nap, nullptr);
}

}  // namespace

MpiWorld::MpiWorld(int& argc, char**& argv) {
  if (!started_by_launcher()) return;
  MPI_Init(&argc, &argv);
  initialised_ = true;
  // Errors end the job with a message; psfsim makes no call that can fail on valid input.
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm host;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host);
  MPI_Comm_rank(host, &local_rank_);
  MPI_Comm_size(host, &local_size_);
  MPI_Comm_free(&host);
}

void MpiWorld::barrier() {
  if (!initialised_) return;
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  wait_sleeping(request);
}

int MpiWorld::min(int value) {
  if (!initialised_) return value;
  int result = value;
  MPI_Request request;
  MPI_Iallreduce(&value, &result, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &request);
  wait_sleeping(request);
  return result;
}

int MpiWorld::broadcast(int value, int root) {
  if (!initialised_) return value;
  MPI_Request request;
  MPI_Ibcast(&value, 1, MPI_INT, root, MPI_COMM_WORLD, &request);
  wait_sleeping(request);
  return value;
}

std::string MpiWorld::broadcast(std::string text, int root) {
  if (!initialised_) return text;
  text.resize(static_cast<std::size_t>(broadcast(static_cast<int>(text.size()), root)));
  MPI_Request request;
  MPI_Ibcast(text.data(), static_cast<int>(text.size()), MPI_CHAR, root, MPI_COMM_WORLD, &request);
  wait_sleeping(request);
  return text;
}

std::vector<double> MpiWorld::gather(double value) {
  if (!initialised_) return {value};
  std::vector<double> all(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
  MPI_Request request;
  MPI_Igather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &request);
  wait_sleeping(request);
  return all;
}

void MpiWorld::abort(int code) {
  if (initialised_) MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

void MpiWorld::finalize() noexcept {
  if (!initialised_) return;
  if (size_ > 1) {
    // Ranks leave together, sleeping while one still works (rank 0's sweep, say). Every
    // file is final or removed by now, so a stop signal ends a rank without a word: mpirun
    // sends SIGTERM to the others as soon as one rank exits with an error, and the error has
    // already been said once.
    barrier();
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);
  }
  MPI_Finalize();  // a fence: no rank exits before every rank got here
  initialised_ = false;
}

int agreed_exit_code(MpiWorld& world, int code) {
  const int agreed = -world.min(-code);
  if (agreed < 0) return agreed;  // every rank goes on
  const int first = world.min(code >= 0 ? world.rank() : world.size());
  if (world.rank() == 0 && code < 0)  // rank 0 parsed it: the rank that did not is silent
    std::fprintf(stderr,
                 "psfsim: error: rank %d could not read the command line or its config "
                 "file (is the file on that host?)\n",
                 first);
  return agreed;
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(length));
  if (const auto end = version.find_first_of(",\n"); end != std::string::npos) version.resize(end);
  return version;
}

}  // namespace psfsim::app

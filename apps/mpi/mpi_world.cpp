#include <mpi.h>
#include <time.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mpi_world.hpp"

namespace psfsim::app {
namespace {

// Set by mpirun (Open MPI), srun with PMIx, or a PMI-1/2 launcher (MPICH, Slurm).
bool started_by_launcher() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

constexpr int stop_tag = 7001;    // stop_others: the failed rank's exit code
constexpr int answer_tag = 7002;  // answer_stop: this rank's files are gone
// How long a failed rank waits for the others' answers: one chunk of work is seconds at most
// for the sizes a job shares out; a rank still busy past this is killed as before.
constexpr double stop_answer_seconds = 20.0;
// A stopped rank that the abort never reaches ends on its own after this.
constexpr double stopped_wait_seconds = 60.0;
const timespec nap{0, 500'000};

double seconds_now() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Polls a request with 0.5 ms naps (a blocking MPI wait spins at 100 % of a core), and the
// other ranks' stop_others meanwhile.
void wait_sleeping(MPI_Request& request, MpiWorld& world) {
  int done = 0;
  for (MPI_Test(&request, &done, MPI_STATUS_IGNORE); !done;
       MPI_Test(&request, &done, MPI_STATUS_IGNORE)) {
    world.throw_if_stopped();
    nanosleep(&nap, nullptr);
  }
}

}  // namespace

struct MpiWorld::StopChannel {
  int code = 0;  // received
  MPI_Request request = MPI_REQUEST_NULL;
  int sent = 0;  // stop_others' code: its sends read it until the abort
};

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
  if (size_ > 1) {
    stop_ = std::make_unique<StopChannel>();
    MPI_Irecv(&stop_->code, 1, MPI_INT, MPI_ANY_SOURCE, stop_tag, MPI_COMM_WORLD, &stop_->request);
  }
}

MpiWorld::~MpiWorld() { finalize(); }

void MpiWorld::throw_if_stopped() {
  if (!stop_ || stop_->request == MPI_REQUEST_NULL) return;
  int done = 0;
  MPI_Status status;
  MPI_Test(&stop_->request, &done, &status);
  if (done) throw RankStopped{status.MPI_SOURCE, stop_->code};
}

void MpiWorld::stop_others(int code) {
  if (!stop_) return;
  stop_->sent = code;
  std::vector<MPI_Request> sent(static_cast<std::size_t>(size_), MPI_REQUEST_NULL);
  for (int r = 0; r < size_; ++r)
    if (r != rank_) MPI_Isend(&stop_->sent, 1, MPI_INT, r, stop_tag, MPI_COMM_WORLD, &sent[r]);
  int answers = 0;
  int answer = 0;
  MPI_Request receive = MPI_REQUEST_NULL;
  MPI_Irecv(&answer, 1, MPI_INT, MPI_ANY_SOURCE, answer_tag, MPI_COMM_WORLD, &receive);
  const double deadline = seconds_now() + stop_answer_seconds;
  while (answers < size_ - 1 && seconds_now() < deadline) {
    int done = 0;
    MPI_Test(&receive, &done, MPI_STATUS_IGNORE);
    if (done) {
      ++answers;
      if (answers < size_ - 1)
        MPI_Irecv(&answer, 1, MPI_INT, MPI_ANY_SOURCE, answer_tag, MPI_COMM_WORLD, &receive);
      continue;
    }
    // Another rank that failed at the same time waits for this one's answer too.
    try {
      throw_if_stopped();
    } catch (const RankStopped& other) {
      int none = 0;
      MPI_Send(&none, 1, MPI_INT, other.rank, answer_tag, MPI_COMM_WORLD);
    }
    nanosleep(&nap, nullptr);
  }
}

void MpiWorld::answer_stop(const RankStopped& stop) {
  int none = 0;
  MPI_Send(&none, 1, MPI_INT, stop.rank, answer_tag, MPI_COMM_WORLD);
  const double deadline = seconds_now() + stopped_wait_seconds;
  while (seconds_now() < deadline) nanosleep(&nap, nullptr);
  std::_Exit(stop.code);
}

void MpiWorld::barrier() {
  if (!initialised_) return;
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  wait_sleeping(request, *this);
}

int MpiWorld::min(int value) {
  if (!initialised_) return value;
  int result = value;
  MPI_Request request;
  MPI_Iallreduce(&value, &result, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &request);
  wait_sleeping(request, *this);
  return result;
}

int MpiWorld::broadcast(int value, int root) {
  if (!initialised_) return value;
  MPI_Request request;
  MPI_Ibcast(&value, 1, MPI_INT, root, MPI_COMM_WORLD, &request);
  wait_sleeping(request, *this);
  return value;
}

std::string MpiWorld::broadcast(std::string text, int root) {
  if (!initialised_) return text;
  text.resize(static_cast<std::size_t>(broadcast(static_cast<int>(text.size()), root)));
  MPI_Request request;
  MPI_Ibcast(text.data(), static_cast<int>(text.size()), MPI_CHAR, root, MPI_COMM_WORLD, &request);
  wait_sleeping(request, *this);
  return text;
}

std::vector<double> MpiWorld::gather(double value) {
  if (!initialised_) return {value};
  std::vector<double> all(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
  MPI_Request request;
  MPI_Igather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD, &request);
  wait_sleeping(request, *this);
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
  if (stop_ && stop_->request != MPI_REQUEST_NULL) {
    MPI_Cancel(&stop_->request);
    MPI_Wait(&stop_->request, MPI_STATUS_IGNORE);
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

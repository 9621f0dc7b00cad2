#pragma once
// The MPI job psfsim runs in when a launcher (mpirun, srun) started it: the ranks, the ranks
// sharing this host, and the few collective steps `psfsim run` needs (docs/scaling.md).
// Without MPI in the build, or without a launcher, it is a world of one rank and MPI is never
// initialised: a singleton MPI_Init costs more than a whole small run (docs/scaling.md).
#include <memory>
#include <string>
#include <vector>

namespace psfsim::app {

struct RankStopped;

class MpiWorld {
 public:
  // Joins the job when the environment shows a launcher started this process.
  MpiWorld(int& argc, char**& argv);
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;
  ~MpiWorld();

  [[nodiscard]] int rank() const noexcept { return rank_; }
  [[nodiscard]] int size() const noexcept { return size_; }
  [[nodiscard]] int local_rank() const noexcept { return local_rank_; }  // among this host's
  [[nodiscard]] int local_size() const noexcept { return local_size_; }

  // Collectives. A waiting rank sleeps instead of spinning: it would take a core from a rank
  // still computing on the same host.
  void barrier();
  [[nodiscard]] int min(int value);
  [[nodiscard]] int broadcast(int value, int root);
  [[nodiscard]] std::string broadcast(std::string text, int root);
  [[nodiscard]] std::vector<double> gather(double value);  // rank 0 gets all; others empty
  // Ends every rank of the job with `code` (mpirun kills the others with SIGTERM).
  [[noreturn]] void abort(int code);

  // A rank that failed on its own, its files removed and its error said, tells the others
  // before abort(): each removes its files at its next chunk or wait and answers. mpirun's
  // SIGTERM alone is not enough: Open MPI sends SIGKILL a second later, and a rank on a
  // loaded host may not have run its stop handler by then. Waits for every answer up to a
  // bound, then returns.
  void stop_others(int code);
  // Throws RankStopped when another rank has called stop_others. Collectives check too.
  void throw_if_stopped();
  // After RankStopped has unwound this rank's files: answers the rank that stopped it, then
  // waits to be killed by the abort that follows (ends with the code if none comes).
  [[noreturn]] void answer_stop(const RankStopped& stop);
  // Collective: every rank calls it once, when its work is over (success or an error all
  // ranks agreed on).
  void finalize() noexcept;

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int local_size_ = 1;
  bool initialised_ = false;
  struct StopChannel;  // the receive posted for another rank's stop_others
  std::unique_ptr<StopChannel> stop_;
};

// Thrown by throw_if_stopped and the collectives: not an Error, so that the agreement steps
// (failure_of) let it pass to execute_run_on_ranks, the stack's files removed on the way.
struct RankStopped {
  int rank;  // the rank that failed
  int code;  // its exit code
};

// After every rank parsed the same command line (and config file): the exit code they all
// leave with, the largest of theirs, or -1 to go on. Where only some ranks failed (a config
// file missing on one host), rank 0 says which.
[[nodiscard]] int agreed_exit_code(MpiWorld& world, int code);

// "Open MPI v4.1.4, ..." when the build has MPI, else "".
[[nodiscard]] std::string mpi_library_version();

}  // namespace psfsim::app

namespace psfsim::app {

// While it lives, stdout and stderr of ranks other than 0 go to /dev/null: every rank parses
// the same command line, so rank 0 alone says what is wrong with it (or prints --help).
class OtherRanksSilent {
 public:
  explicit OtherRanksSilent(const MpiWorld& world);
  OtherRanksSilent(const OtherRanksSilent&) = delete;
  OtherRanksSilent& operator=(const OtherRanksSilent&) = delete;
  ~OtherRanksSilent();

 private:
  int saved_out_ = -1;
  int saved_err_ = -1;
};

}  // namespace psfsim::app

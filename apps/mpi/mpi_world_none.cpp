// A build without MPI: always a world of one rank.
#include <cstdlib>

#include "mpi_world.hpp"

namespace psfsim::app {

struct MpiWorld::StopChannel {};

MpiWorld::MpiWorld(int&, char**&) {}
MpiWorld::~MpiWorld() = default;
void MpiWorld::barrier() {}
int MpiWorld::min(int value) { return value; }
int MpiWorld::broadcast(int value, int) { return value; }
std::string MpiWorld::broadcast(std::string text, int) { return text; }
std::vector<double> MpiWorld::gather(double value) { return {value}; }
void MpiWorld::abort(int code) { std::_Exit(code); }
void MpiWorld::stop_others(int) {}
void MpiWorld::throw_if_stopped() {}
void MpiWorld::answer_stop(const RankStopped& stop) { std::_Exit(stop.code); }
void MpiWorld::finalize() noexcept { initialised_ = false; }
int agreed_exit_code(MpiWorld&, int code) { return code; }
std::string mpi_library_version() { return {}; }

}  // namespace psfsim::app

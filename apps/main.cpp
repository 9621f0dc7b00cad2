// psfsim: optical point-spread functions from a pupil, on FFTW or cuFFT.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <future>
#include <new>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "commands/export_command.hpp"
#include "commands/info_command.hpp"
#include "commands/run_command.hpp"
#include "commands/sweep_command.hpp"
#include "mpi/mpi_run_command.hpp"
#include "mpi/mpi_world.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/command_line_text.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/stop_signals.hpp"

namespace {

// An empty message: another MPI rank has printed the error.
int fail(psfsim::ExitCode code, const std::string& message) {
  if (!message.empty())
    std::fprintf(stderr, "psfsim: error: %s\n", psfsim::printable(message).c_str());
  return static_cast<int>(code);
}

}  // namespace

int main(int argc, char** argv) {
  using psfsim::ExitCode;
  psfsim::builtin_backends().set_up_process();  // before any thread (the CPU's: OpenBLAS's)
  psfsim::install_stop_handlers();
  psfsim::app::MpiWorld world(argc, argv);  // a world of one without mpirun
  const auto cli = psfsim::app::make_command_line();
  {
    const psfsim::app::OtherRanksSilent silent(world);  // one usage error, not R
    const int code = psfsim::app::parse_or_exit_code(*cli, argc, argv);
    if (const int agreed = psfsim::app::agreed_exit_code(world, code); agreed >= 0) return agreed;
  }
  if (world.size() > 1 && !cli->run->parsed()) {
    if (world.rank() != 0) return 0;
    std::fprintf(stderr,
                 "psfsim: note: only `psfsim run` shares its work among MPI ranks; "
                 "this command runs on rank 0 alone\n");
  }

  std::future<void> device_ready;  // outlives the run: _Exit ends the process before it waits
  // Read already, and never to be replaced by an output.
  const std::vector<std::string> configs = cli->app.get_config_ptr()->results();
  try {
    if (cli->run->parsed() && world.size() > 1) {
      psfsim::app::execute_run_on_ranks(cli->run_options, psfsim::quote_command_line(argc, argv),
                                        configs, world);
    } else if (cli->run->parsed()) {
      device_ready =
          psfsim::app::prepare_device(cli->run_options.backend, cli->run_options.pupil.device);
      psfsim::app::execute_run(psfsim::app::to_run_spec(cli->run_options),
                               psfsim::quote_command_line(argc, argv), configs);
    } else if (cli->sweep->parsed()) {
      psfsim::app::execute_sweep(cli->sweep_options, psfsim::quote_command_line(argc, argv),
                                 configs);
    } else if (cli->export_fits->parsed()) {
      psfsim::app::execute_export(cli->export_options, psfsim::quote_command_line(argc, argv));
    } else if (cli->info->parsed()) {
      psfsim::app::print_info();
    }
  } catch (const psfsim::Error& e) {
    return fail(e.code(), e.what());
  } catch (const std::bad_alloc&) {
    return fail(ExitCode::runtime_failure, "out of host memory");
  } catch (const std::exception& e) {
    return fail(ExitCode::runtime_failure, e.what());
  }
  // Every file is committed and closed: what exit() would still run is the libraries' own
  // teardown (the CUDA context and the pinned memory's unmapping, a visible share of a short
  // GPU run: bench/results/2026-11-30-writer-vs-dd.md), which no output depends on, so it is
  // left to the kernel.
  world.finalize();
  std::fflush(nullptr);
  std::_Exit(0);
}

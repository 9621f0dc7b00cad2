#pragma once
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "psfsim/output_path.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/run_spec.hpp"
#include "cli/run_options.hpp"

namespace psfsim::app {

// Starts the runtime of the backend named (--backend cuda: the GPU's) on a thread of its own
// where its entry has a start-up to prepare, before the frames are defined: a batch of a
// million random frames takes long enough on the host to hide the GPU's start-up. Keep the
// future until the process ends (its destructor waits).
[[nodiscard]] std::future<void> prepare_device(const std::string& backend, int device);

// The files a run reads, which its output must not replace: the config files, the pupil
// maps, the --frames CSV and the FFTW wisdom file.
[[nodiscard]] std::vector<InputFile> run_inputs(const RunSpec& spec,
                                                const std::vector<std::string>& config_files);

// Computes the run and writes its file as `psfsim run` does, the path checked before any
// work: `show_progress` draws the progress line (stderr, a terminal only), and `after_chunk`
// runs after each chunk (it may throw to stop the run, whose partial file is then removed).
// Returns the run, for its summary, with the log of its timings in `log`.
[[nodiscard]] std::unique_ptr<PsfRun> write_run_file(RunSpec spec, const std::string& command_line,
                                                     const std::vector<std::string>& config_files,
                                                     bool show_progress,
                                                     const PsfRun::Progress& after_chunk,
                                                     TimingLog& log);

// Computes the run and writes its file; prints a one-screen summary to stdout.
void execute_run(RunSpec spec, const std::string& command_line,
                 const std::vector<std::string>& config_files);

}  // namespace psfsim::app

// One PSF through the psfsim library: a 64-sample pupil with 0.1 waves RMS of defocus,
// written to an HDF5 file, then computed again into memory to print its peak, which with
// the default peak normalization is the Strehl ratio. Usage: psfsim_consumer OUT.h5
#include <algorithm>
#include <cstdio>

#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/psf_file_writer.hpp"
#include "psfsim/psf_run.hpp"
#include "psfsim/run_spec.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT.h5\n", argv[0]);
    return 2;
  }
  try {
    psfsim::RunSpec spec;
    spec.samples = 64;
    spec.frames = {psfsim::Aberration{.zernike = {{.j = 4, .waves = 0.1}}}};
    spec.output = argv[1];

    // The plan is made once, here; each execute() computes the batch into a sink.
    psfsim::PsfRun run(spec, psfsim::builtin_backends());
    psfsim::PsfFileWriter file(spec.output, /*force=*/true, "psfsim consumer example");
    run.execute(file);

    psfsim::FrameCollector memory;
    run.execute(memory);
    const auto frame = memory.frame(0);
    std::printf("%s backend: %dx%d PSF written to %s, peak (Strehl ratio) %.4f\n",
                run.backend().name().c_str(), memory.edge(), memory.edge(), argv[1],
                *std::max_element(frame.begin(), frame.end()));
  } catch (const psfsim::Error& e) {
    std::fprintf(stderr, "psfsim_consumer: error: %s\n", e.what());
    return static_cast<int>(e.code());
  }
  return 0;
}

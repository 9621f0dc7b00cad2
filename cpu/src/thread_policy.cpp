#include "psfsim/cpu/thread_policy.hpp"

#include <algorithm>

#include "psfsim/cpu/tuning.hpp"

namespace psfsim::cpu {

// One PSF (B = 1) by default. Threading a frame costs a roughly fixed fork/join overhead per
// frame (the pupil's parallel region and FFTW's loops: about 20 us on the 2-core development
// machine, 35-45 us on the GPU host's 16-core Xeon VM, nearly the same for 2 or 16 threads),
// while the work divides by the thread count. So a frame stays on one thread while its whole
// serial time is of the order of that overhead, and takes every core once it is well above:
//   M = 128: 1 thread 48 us, 2: 60 us, 8: 48 us, 16: 49 us on 16 cores (nothing to gain);
//            31-38 us with 1 thread, 34 us with 2 on 2 cores (within the noise).
//   M = 256: 1 thread 296 us, 2: 224 us, 4: 166 us, 8: 145 us, 16: 133 us on 16 cores;
//            177 us with 1 thread, 131 us with 2 on 2 cores.
//   M >= 512: 16 threads best on 16 cores at every size (M = 4096: 42.6 ms against 188 ms).
// (bench/cpu-threads.sh, medians of psfsim sweep, float32, 2026-11-30; docs/performance.md,
// "CPU threads".) The grain caps the count on machines with many more cores than measured
// here: no thread gets less than a 64 x 64 tile's worth of the transform (on 16 cores it
// never binds: M = 256 already gives 16 tiles).
// The same count splits the pupil rows and runs the FFTW plans, so every parallel region of a
// frame has the same OpenMP team (OmpTeam in fftw_backend.cpp says what a changing team cost).
ThreadPlan choose_threads(int padded, int max_batch, int requested, int cores) noexcept {
  const int available = std::max(1, requested > 0 ? requested : cores);
  ThreadPlan p;
  if (max_batch > 1) {
    p.workers = std::min(available, max_batch);
    return p;
  }
  if (requested > 0) {
    p.frame_threads = available;
    return p;
  }
  const long long points = static_cast<long long>(padded) * padded;
  if (points >= tuning::frame_threading_points)
    p.frame_threads =
        static_cast<int>(std::clamp<long long>(points / tuning::frame_grain, 1, available));
  return p;
}

}  // namespace psfsim::cpu

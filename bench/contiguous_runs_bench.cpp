// A host pass split over the cores (for_contiguous_runs, on the process's workers): an empty
// pass, which is the pass's own cost, and a pass copying 16 MiB (the Python module's copy of a
// batch call's frames out of a GPU call slot), in 16 runs on at most 8 threads.
//   psfsim_contiguous_runs_bench
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "psfsim/contiguous_parallel.hpp"

namespace {

void pass(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0));
  std::vector<unsigned char> from(bytes + 1, 1), to(bytes + 1, 2);
  for (auto _ : state) {
    psfsim::for_contiguous_runs(
        16,
        [&](std::size_t lo, std::size_t hi) {
          const std::size_t piece = bytes / 16;
          std::memcpy(to.data() + lo * piece, from.data() + lo * piece, (hi - lo) * piece);
        },
        8);
    benchmark::DoNotOptimize(to.data());
  }
}
BENCHMARK(pass)->Arg(0)->Arg(16 << 20)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
BENCHMARK_MAIN();

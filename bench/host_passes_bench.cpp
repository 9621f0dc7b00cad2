// The host's side of a batch, alone:
// - a pass split over the cores (for_contiguous_runs, on the process's workers): an empty pass,
//   which is the pass's own cost, and one copying 16 MiB (the Python module's copy of a batch
//   call's frames out of a GPU call slot), in 16 runs on at most 8 threads; and copy_frames,
//   which makes that copy now, its pieces stored past the cache, for 16 and 64 MiB;
// - filling a batch's 128 MiB of frames in memory new from the system against memory from a
//   ReusedHostMemory that a previous batch let go (PsfRun's arrays handed to Python).
//   psfsim_host_passes_bench
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "psfsim/contiguous_parallel.hpp"
#include "psfsim/frame_copy.hpp"
#include "psfsim/reused_host_memory.hpp"

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
BENCHMARK(pass)->Arg(0)->Arg(16 << 20)->Arg(64 << 20)->Unit(benchmark::kMicrosecond)->UseRealTime();

void frame_copy(benchmark::State& state) {
  const std::size_t bytes = static_cast<std::size_t>(state.range(0));
  std::vector<unsigned char> from(bytes, 1), to(bytes, 2);
  for (auto _ : state) {
    psfsim::copy_frames(to.data(), from.data(), bytes);
    benchmark::DoNotOptimize(to.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}
BENCHMARK(frame_copy)->Arg(16 << 20)->Arg(64 << 20)->Unit(benchmark::kMicrosecond)->UseRealTime();

// range(0): 1 takes the memory from a ReusedHostMemory, 0 from new[].
void fill_batch(benchmark::State& state) {
  constexpr std::size_t bytes = std::size_t{128} << 20;
  psfsim::ReusedHostMemory reused;
  std::memset(reused.take(bytes).get(), 1, bytes);  // a previous batch, let go
  for (auto _ : state) {
    const std::shared_ptr<void> memory =
        state.range(0) == 1 ? reused.take(bytes)
                            : std::shared_ptr<unsigned char[]>(new unsigned char[bytes]);
    std::memset(memory.get(), 1, bytes);
    benchmark::DoNotOptimize(memory.get());
  }
}
BENCHMARK(fill_batch)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();

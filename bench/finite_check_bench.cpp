// The scan of host frames for NaN and infinity (lib/run/src/finite_check.cpp), which every
// frame returned to the host goes through before anyone sees it: one frame of K x K values,
// float32 and float64, K = 64, 128 and 256 (a Python call of one PSF at N = 128 returns
// 256 x 256). The loader picks the scan's clone for this CPU.
//   psfsim_finite_check_bench
#include <benchmark/benchmark.h>

#include <vector>

#include "psfsim/finite_check.hpp"

namespace {

template <typename Real>
void one_frame(benchmark::State& state) {
  const auto k = static_cast<std::size_t>(state.range(0));
  const std::vector<Real> frame(k * k, Real(0.5));
  const psfsim::Precision precision =
      sizeof(Real) == 4 ? psfsim::Precision::single : psfsim::Precision::double_;
  for (auto _ : state)
    benchmark::DoNotOptimize(psfsim::first_non_finite_frame(frame.data(), 1, k * k, precision));
  state.SetBytesProcessed(static_cast<long long>(state.iterations() * k * k * sizeof(Real)));
}

BENCHMARK(one_frame<float>)->Arg(64)->Arg(128)->Arg(256);
BENCHMARK(one_frame<double>)->Arg(64)->Arg(128)->Arg(256);

}  // namespace

BENCHMARK_MAIN();

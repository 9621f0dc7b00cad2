// The host's share of a batch of random frames (bench/results/2026-12-03-python-batches.md):
// per frame, building each frame's terms and compiling them with compile_phase (the path a
// Python table and --random took before PhaseTemplate), a PhaseTemplate's compile into
// reused polynomials, and what starting eight threads for a call costs. Three Zernike terms
// a frame (Z4-Z6), medians of 7 after 2. Then --random's host share of a call, one core, per
// frame of Z4-Z6 and Z4-Z11 (eight terms, degree 4): drawing the raw stream, the normal
// deviates from it, and those with the template's compile
// (bench/results/2026-12-07-prepared-calls.md).
//
//   psfsim_phase_compile_bench [frames]      (default 16384)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/contiguous_parallel.hpp"
#include "psfsim/phase_template.hpp"

namespace {

using Clock = std::chrono::steady_clock;

template <typename Work>
double median_seconds(Work&& work) {
  std::vector<double> times;
  for (int r = 0; r < 9; ++r) {
    const auto start = Clock::now();
    work();
    if (r >= 2) times.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  using namespace psfsim;
  const std::size_t frames = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 16384;
  const std::vector<TermId> ids{
      {true, 4, 0, 0, 1.0, -1}, {true, 5, 0, 0, 1.0, -1}, {true, 6, 0, 0, 1.0, -1}};
  std::mt19937_64 rng(1);
  std::normal_distribution<double> draw(0.0, 0.05);
  std::vector<double> values(frames * ids.size());
  for (double& v : values) v = draw(rng);

  // As a call made them before: the frames' terms and polynomials in memory of its own.
  const double built = median_seconds([&] {
    std::vector<Aberration> terms(frames);
    for (std::size_t f = 0; f < frames; ++f)
      for (std::size_t k = 0; k < ids.size(); ++k)
        set_term(terms[f], ids[k], values[f * ids.size() + k]);
    std::vector<AberrationPolynomial> fresh(frames);
    for (std::size_t f = 0; f < frames; ++f) fresh[f] = compile_phase(terms[f], 0);
  });
  std::vector<AberrationPolynomial> phases(frames);  // reused, as a run's call slots are
  const auto shape = PhaseTemplate::make(Aberration{}, ids, 0, 1.0);
  const double templated = median_seconds([&] {
    for (std::size_t f = 0; f < frames; ++f)
      shape->compile(values.data() + f * ids.size(), 1, phases[f]);
  });
  const double threads = median_seconds([] {
    for_contiguous_runs(
        8, [](std::size_t, std::size_t) {}, 8);
  });
  std::printf(
      "%zu frames of Z4-Z6, one core: terms built and compiled %.1f ns a frame, "
      "a template's compile %.1f ns a frame; eight threads started and joined %.1f us\n",
      frames, 1e9 * built / frames, 1e9 * templated / frames, 1e6 * threads);

  for (const int j_max : {6, 11}) {
    RandomAberrations random;
    random.random =
        RandomSpec{4, j_max, ZernikeOrdering::noll, 0.05, static_cast<int>(16 * frames), 1};
    RandomAberrationDraws draws(random);
    std::size_t chunk = 0;  // each draw the next chunk of the stream, as a run's calls take them
    const double drawn = median_seconds([&] { draws.draw((chunk++ % 16) * frames, frames); });
    draws.draw(0, frames);
    const auto drawn_shape = PhaseTemplate::make(draws.fixed(), draws.ids(), 0, 1.0);
    std::vector<double> v(draws.ids().size());
    const double deviates = median_seconds([&] {
      for (std::size_t f = 0; f < frames; ++f) draws.values(f, v.data());
    });
    const double compiled = median_seconds([&] {
      for (std::size_t f = 0; f < frames; ++f) {
        draws.values(f, v.data());
        drawn_shape->compile(v.data(), 1, phases[f]);
      }
    });
    std::printf(
        "--random Z4-Z%d, one core: the raw stream drawn %.1f ns a frame, normal deviates "
        "%.1f ns, deviates and the template's compile %.1f ns\n",
        j_max, 1e9 * drawn / frames, 1e9 * deviates / frames, 1e9 * compiled / frames);
  }
}

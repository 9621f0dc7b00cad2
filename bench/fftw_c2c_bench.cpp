// The floor the CPU backend is measured against (docs/spec.md §5): a bare FFTW M x M in-place
// complex-to-complex forward transform, float and double, FFTW_MEASURE plans, over
// M = 128..4096. Nothing else: no pupil, no shifts, no intensity.
//
//   psfsim_fftw_c2c_bench [--threads=T] [--wisdom=FILE] [Google Benchmark flags]
//   psfsim_fftw_c2c_bench --benchmark_filter='^c2c_float/256$' --benchmark_format=json
//
// FFTW threads: --threads=T (or --threads T), else the environment variable
// PSFSIM_BENCH_THREADS, else 1; 0 means every core, as psfsim's --threads 0. They are FFTW's OpenMP
// threads, not Google Benchmark's
// ->Threads(), which would run T independent transforms at once.
#include <benchmark/benchmark.h>
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace {

int g_threads = 1;
unsigned g_planner = FFTW_MEASURE;  // --effort=measure|patient, as psfsim's --fft-effort
const char* g_planner_name = "FFTW_MEASURE";
std::string g_wisdom;  // optional FFTW wisdom file: MEASURE planning of 4096^2 takes a while

// One traits struct per precision so that the benchmark body is written once.
struct Single {
  using Real = float;
  using Complex = fftwf_complex;
  using Plan = fftwf_plan;
  static Complex* alloc(size_t n) { return fftwf_alloc_complex(n); }
  static void free(Complex* p) { fftwf_free(p); }
  static Plan plan(int m, Complex* d) {
    fftwf_plan_with_nthreads(g_threads);
    return fftwf_plan_dft_2d(m, m, d, d, FFTW_FORWARD, g_planner);
  }
  static void execute(Plan p) { fftwf_execute(p); }
  static void destroy(Plan p) { fftwf_destroy_plan(p); }
};

struct Double {
  using Real = double;
  using Complex = fftw_complex;
  using Plan = fftw_plan;
  static Complex* alloc(size_t n) { return fftw_alloc_complex(n); }
  static void free(Complex* p) { fftw_free(p); }
  static Plan plan(int m, Complex* d) {
    fftw_plan_with_nthreads(g_threads);
    return fftw_plan_dft_2d(m, m, d, d, FFTW_FORWARD, g_planner);
  }
  static void execute(Plan p) { fftw_execute(p); }
  static void destroy(Plan p) { fftw_destroy_plan(p); }
};

// Buffer and plan for one (precision, M), made once per process: Google Benchmark calls the
// body several times while it sizes the iteration count, and planning is not what we time.
template <class P>
struct Workspace {
  int m;
  typename P::Complex* data;
  typename P::Plan plan;

  explicit Workspace(int m_) : m(m_) {
    const size_t n = size_t(m) * size_t(m);
    data = P::alloc(n);
    if (!data) {
      std::fprintf(stderr, "psfsim_fftw_c2c_bench: cannot allocate %dx%d\n", m, m);
      std::exit(3);
    }
    plan = P::plan(m, data);  // MEASURE overwrites the buffer, so fill it afterwards
    if (!plan) {
      std::fprintf(stderr, "psfsim_fftw_c2c_bench: FFTW could not plan %dx%d\n", m, m);
      std::exit(3);
    }
    fill();
  }
  ~Workspace() {
    P::destroy(plan);
    P::free(data);
  }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  // Random values, not zeros: a zero or constant input can take faster paths (and a
  // transform of zeros says nothing about a pupil).
  void fill() {
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<typename P::Real> u(-1, 1);
    const size_t n = size_t(m) * size_t(m);
    for (size_t i = 0; i < n; ++i) {
      data[i][0] = u(rng);
      data[i][1] = u(rng);
    }
  }

  // Each unnormalized transform multiplies the RMS by M; scaling back keeps float data far
  // from overflow (and from inf/NaN arithmetic) however many iterations run.
  void rescale() {
    const typename P::Real s = typename P::Real(1) / typename P::Real(m);
    const size_t n = size_t(m) * size_t(m);
    for (size_t i = 0; i < n; ++i) {
      data[i][0] *= s;
      data[i][1] *= s;
    }
  }
};

template <class P>
Workspace<P>& workspace(int m) {
  static std::map<int, std::unique_ptr<Workspace<P>>> cache;
  auto it = cache.find(m);
  if (it == cache.end()) {
    cache.clear();  // one size at a time: 4096^2 double is 256 MiB
    it = cache.emplace(m, std::make_unique<Workspace<P>>(m)).first;
  }
  return *it->second;
}

template <class P>
void c2c(benchmark::State& state) {
  const int m = int(state.range(0));
  auto& w = workspace<P>(m);
  for (auto _ : state) {
    // Manual timing: only fftw_execute counts, not the rescale between transforms.
    const auto t0 = std::chrono::steady_clock::now();
    P::execute(w.plan);
    const auto t1 = std::chrono::steady_clock::now();
    benchmark::ClobberMemory();
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
    w.rescale();
  }
  const double points = double(m) * double(m);
  state.counters["fftw_threads"] = g_threads;
  // The customary FFT operation count, 5 n log2 n, as a rate (GFLOP/s in the output).
  state.counters["flops"] = benchmark::Counter(5.0 * points * std::log2(points),
                                               benchmark::Counter::kIsIterationInvariantRate);
  state.SetItemsProcessed(state.iterations());  // transforms per second
}

int parse_threads(std::string_view text, const char* from) {
  char* end = nullptr;
  const std::string s(text);
  const long t = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || t < 0 || t > 4096) {
    std::fprintf(stderr,
                 "psfsim_fftw_c2c_bench: error: %s '%s' is not a thread count "
                 "(0 for every core)\n",
                 from, s.c_str());
    std::exit(2);
  }
  return t == 0 ? int(std::max(1u, std::thread::hardware_concurrency())) : int(t);
}

// Takes our own flags out of argv before Google Benchmark sees it.
void parse_own_flags(int& argc, char** argv) {
  if (const char* env = std::getenv("PSFSIM_BENCH_THREADS"); env && *env)
    g_threads = parse_threads(env, "PSFSIM_BENCH_THREADS");
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a.starts_with("--threads=")) {
      g_threads = parse_threads(a.substr(10), "--threads");
    } else if (a == "--threads" && i + 1 < argc) {
      g_threads = parse_threads(argv[++i], "--threads");
    } else if (a == "--effort=patient") {
      g_planner = FFTW_PATIENT;
      g_planner_name = "FFTW_PATIENT";
    } else if (a == "--effort=measure") {
      g_planner = FFTW_MEASURE;
      g_planner_name = "FFTW_MEASURE";
    } else if (a.starts_with("--wisdom=")) {
      g_wisdom = std::string(a.substr(9));
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  argv[argc] = nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  parse_own_flags(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    std::fprintf(stderr,
                 "own flags: --threads=T (FFTW threads; default $PSFSIM_BENCH_THREADS "
                 "or 1; 0: every core), --effort=measure|patient, --wisdom=FILE\n");
    return 2;
  }
  fftw_init_threads();
  fftwf_init_threads();
  if (!g_wisdom.empty()) {
    // A missing file is the first run: it is written below.
    fftw_import_wisdom_from_filename(g_wisdom.c_str());
    fftwf_import_wisdom_from_filename((g_wisdom + ".f").c_str());
  }
  benchmark::AddCustomContext("fftw_version", fftw_version);
  benchmark::AddCustomContext("fftw_threads", std::to_string(g_threads));
  benchmark::AddCustomContext("fftw_planner", std::string(g_planner_name) + ", in-place, forward");

  for (int m = 128; m <= 4096; m *= 2) {
    benchmark::RegisterBenchmark("c2c_float", c2c<Single>)
        ->Arg(m)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("c2c_double", c2c<Double>)
        ->Arg(m)
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  if (!g_wisdom.empty()) {
    fftw_export_wisdom_to_filename(g_wisdom.c_str());
    fftwf_export_wisdom_to_filename((g_wisdom + ".f").c_str());
  }
  fftw_cleanup_threads();
  fftwf_cleanup_threads();
  return 0;
}

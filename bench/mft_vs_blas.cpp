// docs/spec.md §10's CPU MFT target: MftPropagator::propagate against the two bare BLAS products of
// the same shapes ((N x N)(N x K) and (K x N)(N x K) per frame), measured in the same run;
// the ratio should stay within 1.3. Pupils are a clear disk with a random phase.
//
//   psfsim_mft_vs_blas [--frames B] [--threads T] [--repeats R] [--double]
//                      [--samples N,...] [--output K,...]
// Defaults: B = 256, T = 0 (every core), R = 9, float, N = 64,128,256, K = 32,64,128.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "mft_propagator.hpp"
#include "psfsim/cpu/blas_kernels.hpp"
#include "psfsim/pupil_math.hpp"

namespace {

struct Options {
  int frames = 256;
  int threads = 0;
  int repeats = 9;
  bool double_precision = false;
  std::vector<int> samples{64, 128, 256};
  std::vector<int> outputs{32, 64, 128};
};

std::vector<int> int_list(const char* text) {
  std::vector<int> out;
  for (const char* p = text; *p != '\0';) {
    char* end = nullptr;
    out.push_back(static_cast<int>(std::strtol(p, &end, 10)));
    p = *end == ',' ? end + 1 : end;
    if (end == p && *p != '\0') break;
  }
  return out;
}

template <typename Real>
std::vector<std::complex<Real>> disk_pupils(int n, int count) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> waves(-0.5, 0.5);
  std::vector<std::complex<Real>> p(static_cast<std::size_t>(count) * n * n);
  for (int f = 0; f < count; ++f)
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        const double x = psfsim::pupil::coordinate(c, n, psfsim::Grid::centered);
        const double y = psfsim::pupil::coordinate(r, n, psfsim::Grid::centered);
        if (psfsim::pupil::radius(x, y) <= 1.0)
          p[(static_cast<std::size_t>(f) * n + r) * n + c] =
              std::polar(Real(1), static_cast<Real>(2 * M_PI * waves(rng)));
      }
  return p;
}

double median(std::vector<double> t) {
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return t[t.size() / 2];
}

// The two are timed alternately, so that load from elsewhere on a shared machine, and the
// thread pools settling after start-up, fall on both alike.
template <typename Real>
void measure(const Options& o) {
  using Clock = std::chrono::steady_clock;
  using Mft = psfsim::cpu::MftPropagator<Real>;
  for (const int n : o.samples) {
    const auto pupils = disk_pupils<Real>(n, o.frames);
    for (const int k : o.outputs) {
      Mft mft(n, k, 0.5, psfsim::Grid::centered, o.threads);
      std::vector<Real> out(static_cast<std::size_t>(o.frames) * k * k);
      mft.propagate(pupils.data(), o.frames, out.data(), Real(1));  // warm-up
      std::vector<double> mft_s;
      std::vector<double> bare_s;
      for (int r = 0; r < o.repeats; ++r) {
        const auto t0 = Clock::now();
        mft.propagate(pupils.data(), o.frames, out.data(), Real(1));
        mft_s.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        bare_s.push_back(Mft::bare_products_seconds(n, k, o.frames, o.threads, 1));
      }
      const double m = median(mft_s);
      const double b = median(bare_s);
      std::printf("| %d | %d | %.2f | %.2f | %.0f | %.2f |\n", n, k, 1e6 * m / o.frames,
                  1e6 * b / o.frames, o.frames / m, m / b);
      std::fflush(stdout);
    }
  }
}

// OpenBLAS's pool threads spin for a while after start-up; let them settle before timing.
template <typename Real>
void settle(const Options& o) {
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(500))
    (void)psfsim::cpu::MftPropagator<Real>::bare_products_seconds(64, 32, 64, o.threads, 1);
}

}  // namespace

int main(int argc, char** argv) {
  psfsim::cpu::set_openblas_environment();  // the kernels and threads psfsim itself runs with
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--frames" && has_value) o.frames = std::atoi(argv[++i]);
    else if (a == "--threads" && has_value) o.threads = std::atoi(argv[++i]);
    else if (a == "--repeats" && has_value) o.repeats = std::atoi(argv[++i]);
    else if (a == "--samples" && has_value) o.samples = int_list(argv[++i]);
    else if (a == "--output" && has_value) o.outputs = int_list(argv[++i]);
    else if (a == "--double") o.double_precision = true;
    else {
      std::fprintf(stderr,
                   "usage: %s [--frames B] [--threads T] [--repeats R] [--double] "
                   "[--samples N,...] [--output K,...]\n",
                   argv[0]);
      return 2;
    }
  }
  if (o.frames < 1 || o.repeats < 1) {
    std::fprintf(stderr, "%s: --frames and --repeats must be at least 1\n", argv[0]);
    return 2;
  }
  const int threads =
      o.threads > 0 ? o.threads : static_cast<int>(std::thread::hardware_concurrency());
  std::printf("MFT vs the two bare BLAS products, %s, B = %d frames, %d threads, median of %d\n\n",
              o.double_precision ? "double" : "float", o.frames, threads, o.repeats);
  std::printf("| N | K | MFT us/frame | bare GEMMs us/frame | MFT frames/s | ratio |\n");
  std::printf("|---|---|---|---|---|---|\n");
  if (o.double_precision) {
    settle<double>(o);
    measure<double>(o);
  } else {
    settle<float>(o);
    measure<float>(o);
  }
  return 0;
}

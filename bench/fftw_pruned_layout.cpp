// Why the CPU backend's pruned 2D FFT is laid out as it is: times, for M = 2N (float, one
// thread), FFTW's full 2D transform against the two passes of the pruned one, and the
// variants it rejected. Every pass touches real data (random values, not zeros).
//
//   psfsim_fftw_pruned_layout [N ...] [--patient]      (default N = 64 128 256)
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

double median_us(fftwf_plan plan) {
  for (int i = 0; i < 5; ++i) fftwf_execute(plan);
  std::vector<double> t;
  for (int i = 0; i < 200; ++i) {
    const auto a = std::chrono::steady_clock::now();
    fftwf_execute(plan);
    t.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
  }
  std::nth_element(t.begin(), t.begin() + 100, t.end());
  return t[100];
}

fftwf_plan plan_1d(int m, int stride, int count, int dist, fftwf_complex* in, fftwf_complex* out,
                   unsigned flags) {
  const fftw_iodim dim{m, stride, stride};
  const fftw_iodim loop{count, dist, dist};
  return fftwf_plan_guru_dft(1, &dim, 1, &loop, in, out, FFTW_FORWARD, flags);
}

void measure(int n, unsigned flags) {
  const int m = 2 * n;
  const int o = (m - n) / 2;
  const std::size_t size = static_cast<std::size_t>(m) * m;
  fftwf_complex* a = fftwf_alloc_complex(size);
  fftwf_complex* b = fftwf_alloc_complex(size);
  fftwf_plan full = fftwf_plan_dft_2d(m, m, a, a, FFTW_FORWARD, flags);
  // Chosen: columns in place over the N pupil columns, then rows out of place over M rows.
  fftwf_plan columns_in_place = plan_1d(m, m, n, 1, a + o, a + o, flags);
  fftwf_plan rows_out_of_place = plan_1d(m, 1, m, m, a, b, flags);
  // Rejected: rows first over the N pupil rows, then all M columns (strided) out of place,
  // and the columns of the pupil out of place.
  fftwf_plan pupil_rows = plan_1d(m, 1, n, m, a + o * m, a + o * m, flags);
  fftwf_plan all_columns_out_of_place = plan_1d(m, m, m, 1, a, b, flags);
  fftwf_plan columns_out_of_place = plan_1d(m, m, n, 1, a + o, b + o, flags);

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (std::size_t i = 0; i < size; ++i) {
    a[i][0] = u(rng);
    a[i][1] = u(rng);
    b[i][0] = u(rng);
    b[i][1] = u(rng);
  }
  const double t_full = median_us(full);
  const double t_cols = median_us(columns_in_place);
  const double t_rows = median_us(rows_out_of_place);
  const double t_prow = median_us(pupil_rows);
  const double t_acol = median_us(all_columns_out_of_place);
  const double t_colo = median_us(columns_out_of_place);
  std::printf("| %d | %d | %.1f | %.1f + %.1f = %.1f | %.1f + %.1f = %.1f | %.1f |\n", n, m, t_full,
              t_cols, t_rows, t_cols + t_rows, t_prow, t_acol, t_prow + t_acol, t_colo);
  for (fftwf_plan p : {full, columns_in_place, rows_out_of_place, pupil_rows,
                       all_columns_out_of_place, columns_out_of_place})
    fftwf_destroy_plan(p);
  fftwf_free(a);
  fftwf_free(b);
}

}  // namespace

int main(int argc, char** argv) {
  unsigned flags = FFTW_MEASURE;
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--patient") == 0) flags = FFTW_PATIENT;
    else if (const int n = std::atoi(argv[i]); n >= 2 && n <= 4096) sizes.push_back(n);
    else {
      std::fprintf(stderr, "usage: %s [N ...] [--patient]\n", argv[0]);
      return 2;
    }
  }
  if (sizes.empty()) sizes = {64, 128, 256};
  std::printf("FFTW %s, %s, float, 1 thread, median of 200 (us)\n\n", fftwf_version,
              flags == FFTW_PATIENT ? "FFTW_PATIENT" : "FFTW_MEASURE");
  std::printf(
      "| N | M | full 2D | chosen: N columns in place + M rows out of place | "
      "rejected: N rows + M columns out of place | N columns out of place |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (int n : sizes) measure(n, flags);
}

// Could cuFFT skip the zero padding of the pupil? Times, on the device, the transform the
// CUDA backend makes (M x M, B frames, out of place) against two pruned alternatives
// (bench/results/2026-12-01-metrics-end-to-end.md):
//   - four N x N transforms for M = 2N (the decimation of the output in both axes), the
//     twiddles left out: only cuFFT's share is timed;
//   - the N pupil rows alone (length M), then the M columns with the frames interleaved in
//     memory ([row][frame][column]), the only layout in which one cuFFT plan reaches them.
//   psfsim_cufft_padding_bench [N [B]]     (default 128 4096)
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void check(int status, const char* what) {
  if (status == 0) return;
  std::fprintf(stderr, "psfsim_cufft_padding_bench: %s failed (%d)\n", what, status);
  std::exit(3);
}

template <typename Work>
float milliseconds(Work&& work, int repeats) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  work();  // cuFFT's first call loads its kernels
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  check(cudaEventRecord(start), "cudaEventRecord");
  for (int r = 0; r < repeats; ++r) work();
  check(cudaEventRecord(stop), "cudaEventRecord");
  check(cudaEventSynchronize(stop), "cudaEventSynchronize");
  float ms = 0.0f;
  check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / static_cast<float>(repeats);
}

cufftHandle plan(int rank, long long* n, long long* embed, long long stride, long long dist,
                 long long batch) {
  cufftHandle h{};
  std::size_t work = 0;
  check(cufftCreate(&h), "cufftCreate");
  check(cufftMakePlanMany64(h, rank, n, embed, stride, dist, embed, stride, dist, CUFFT_C2C, batch,
                            &work),
        "cufftMakePlanMany64");
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  const long long n = argc > 1 ? std::stoll(argv[1]) : 128;
  const long long b = argc > 2 ? std::stoll(argv[2]) : 4096;
  const long long m = 2 * n;
  const std::size_t bytes = static_cast<std::size_t>(b * m * m) * sizeof(cufftComplex);
  const auto allocate = [bytes] {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return static_cast<cufftComplex*>(p);
  };
  cufftComplex* in = allocate();
  cufftComplex* mid = allocate();
  cufftComplex* out = allocate();
  check(cudaMemset(in, 0, bytes), "cudaMemset");
  check(cudaMemset(mid, 0, bytes), "cudaMemset");

  long long whole[2] = {m, m}, quarter[2] = {n, n}, line[1] = {m};
  const cufftHandle padded = plan(2, whole, nullptr, 1, m * m, b);
  const cufftHandle decimated = plan(2, quarter, nullptr, 1, n * n, 4 * b);
  const cufftHandle rows = plan(1, line, line, 1, m, n * b);
  const cufftHandle columns = plan(1, line, line, b * m, 1, b * m);
  constexpr int repeats = 20;
  const auto exec = [](cufftHandle h, cufftComplex* x, cufftComplex* y) {
    check(cufftExecC2C(h, x, y, CUFFT_FORWARD), "cufftExecC2C");
  };
  const float t_padded = milliseconds([&] { exec(padded, in, out); }, repeats);
  const float t_decimated = milliseconds([&] { exec(decimated, in, out); }, repeats);
  const float t_rows = milliseconds([&] { exec(rows, in, mid); }, repeats);
  const float t_columns = milliseconds([&] { exec(columns, mid, out); }, repeats);
  std::printf("N = %lld, M = %lld, %lld frames, float32, out of place, mean of %d [ms]\n", n, m, b,
              repeats);
  std::printf("  %-44s %8.3f\n", "M x M (what the backend does)", t_padded);
  std::printf("  %-44s %8.3f\n", "4 x (N x N), twiddles not counted", t_decimated);
  std::printf("  %-44s %8.3f\n", "N rows, then M interleaved columns", t_rows + t_columns);
  std::printf("  %-44s %8.3f\n", "  of which the rows", t_rows);
  cufftDestroy(padded);
  cufftDestroy(decimated);
  cufftDestroy(rows);
  cufftDestroy(columns);
  cudaFree(in);
  cudaFree(mid);
  cudaFree(out);
  return 0;
}

// What a CUDA process pays before its first PSF, step by step: the context (cudaFree(0)),
// cuFFT's first plan (N = 128, M = 256, 4096 frames, as `--store metrics` makes), a second
// such plan, and 192 MiB of pinned memory. Run it as the first process on a machine and
// again: the first run reads the driver's and cuFFT's kernels from disk.
//   psfsim_cuda_start_bench
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <chrono>
#include <cstdio>

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool failed(int status, const char* what) {
  if (status == 0) return false;
  std::fprintf(stderr, "psfsim_cuda_start_bench: %s failed (%d)\n", what, status);
  return true;
}

}  // namespace

int main() {
  const double t0 = now();
  if (failed(cudaFree(nullptr), "cudaFree(0)")) return 3;
  const double t1 = now();
  int n[2] = {256, 256};
  cufftHandle first{}, second{};
  if (failed(cufftPlanMany(&first, 2, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 4096),
             "cufftPlanMany"))
    return 3;
  const double t2 = now();
  if (failed(cufftPlanMany(&second, 2, n, nullptr, 1, 0, nullptr, 1, 0, CUFFT_C2C, 4096),
             "cufftPlanMany"))
    return 3;
  const double t3 = now();
  void* pinned = nullptr;
  if (failed(cudaMallocHost(&pinned, std::size_t{192} << 20), "cudaMallocHost")) return 3;
  const double t4 = now();
  std::printf("context %.3f s, first cuFFT plan %.3f s, second %.3f s, 192 MiB pinned %.3f s\n",
              t1 - t0, t2 - t1, t3 - t2, t4 - t3);
  cufftDestroy(first);
  cufftDestroy(second);
  cudaFreeHost(pinned);
  return 0;
}

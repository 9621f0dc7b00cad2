// The pupil's M x M transform as the CUDA backend takes it (cuda/src/field_transform.hpp),
// side by side in one process: cuFFT's 2D plan over the zero-padded fields, against the two
// passes that skip the zero rows, writing the focal-plane field or |X|^2 alone. Device time
// per call (CUDA events, median of 7 runs of 20 calls) and per frame.
//   psfsim_field_transform_bench [N [B [double]]]     (default 128 4096, float)
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "device_memory.hpp"
#include "field_transform.hpp"

namespace {

using psfsim::cuda::DeviceBuffer;
using psfsim::cuda::DeviceComplex;
using psfsim::cuda::FieldTransform;

template <typename Work>
float median_ms(Work&& work, cudaStream_t stream) {
  cudaEvent_t start, stop;
  PSFSIM_CUDA_CHECK(cudaEventCreate(&start));
  PSFSIM_CUDA_CHECK(cudaEventCreate(&stop));
  work();  // first calls load kernels
  PSFSIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  std::vector<float> runs;
  constexpr int calls = 20;
  for (int run = 0; run < 7; ++run) {
    PSFSIM_CUDA_CHECK(cudaEventRecord(start, stream));
    for (int c = 0; c < calls; ++c) work();
    PSFSIM_CUDA_CHECK(cudaEventRecord(stop, stream));
    PSFSIM_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    PSFSIM_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    runs.push_back(ms / calls);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

template <typename Real>
void bench(int n, int batch) {
  using Complex = DeviceComplex<Real>;
  const int m = 2 * n;
  const int offset = (m - n) / 2;
  cudaStream_t stream{};
  PSFSIM_CUDA_CHECK(cudaStreamCreate(&stream));
  {
    const FieldTransform<Real> whole(n, m, offset, batch, false, stream);
    const FieldTransform<Real> split(n, m, offset, batch, true, stream);
    const std::size_t plane = static_cast<std::size_t>(batch) * m * m;
    DeviceBuffer<Complex> pupil(plane);  // holds either layout
    DeviceBuffer<Complex> fields(plane);
    PSFSIM_CUDA_CHECK(cudaMemset(pupil.data(), 0, pupil.bytes()));
    const float a = median_ms([&] { whole.forward(pupil.data(), fields.data()); }, stream);
    const float b = median_ms([&] { split.forward(pupil.data(), fields.data()); }, stream);
    const float c = median_ms(
        [&] { split.forward_intensity(pupil.data(), reinterpret_cast<Real*>(fields.data())); },
        stream);
    const char* type = sizeof(Real) == 4 ? "float" : "double";
    std::printf("N=%d M=%d B=%d %s, ms a call (us a frame):\n", n, m, batch, type);
    std::printf("  cuFFT 2D              %8.3f (%.3f)\n", a, 1e3 * a / batch);
    std::printf("  rows + columns        %8.3f (%.3f)  %.2fx\n", b, 1e3 * b / batch, a / b);
    std::printf("  rows + columns, |X|^2 %8.3f (%.3f)  %.2fx\n", c, 1e3 * c / batch, a / c);
  }
  cudaStreamDestroy(stream);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const int n = argc > 1 ? std::stoi(argv[1]) : 128;
    const int batch = argc > 2 ? std::stoi(argv[2]) : 4096;
    if (argc > 3 && std::string(argv[3]) == "double") bench<double>(n, batch);
    else bench<float>(n, batch);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "psfsim_field_transform_bench: %s\n", e.what());
    return 3;
  }
  return 0;
}

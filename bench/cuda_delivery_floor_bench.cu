// The floor under "one PSF to host": what any program pays on this host to launch work and
// have an M x M float32 frame in pinned host memory after it, with no optics at all.
// Medians of many warm calls on one non-blocking stream, interleaved over rounds.
//   psfsim_cuda_delivery_floor_bench [M ...]      (default 128 256: the frames of N = 64, 128)
// Rows for each M:
//   launch      one empty kernel and its wait;
//   graph3      a graph of three empty kernels (psfsim's pupil, transform and intensity) and
//               its wait;
//   write       one kernel that writes the frame straight into mapped pinned host memory (as
//               psfsim's intensity kernel does for one PSF), and its wait;
//   graph3+write  two empty kernels and that writing kernel as one graph;
//   copy        one empty kernel, then the frame copied from device memory to pinned host
//               memory, and the wait.
// The `write` row is the least a lone PSF to host can cost whatever its kernels compute; the
// `graph3+write` row is that floor for psfsim's three-stage shape.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
constexpr int repeats = 3000;
constexpr int rounds = 3;

void check(cudaError_t status, const char* what) {
  if (static_cast<int>(status) == 0) return;  // cudaSuccess
  std::fprintf(stderr, "psfsim_cuda_delivery_floor_bench: %s: %s\n", what,
               cudaGetErrorString(status));
  std::exit(3);
}

__global__ void empty_kernel() {}

// Each thread stores one float4: the whole warp's stores coalesce into 512-byte writes.
__global__ void write_frame(float4* out, int quads, float value) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < quads) out[i] = make_float4(value, value, value, value);
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

double timed(const std::function<void()>& call) {
  for (int i = 0; i < 100; ++i) call();
  std::vector<double> t(repeats);
  for (double& v : t) {
    const auto start = Clock::now();
    call();
    v = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  }
  return median(std::move(t));
}

struct Case {
  std::string name;
  std::function<void()> call;
  std::vector<double> medians;
};

cudaGraphExec_t capture(cudaStream_t stream, const std::function<void()>& kernels) {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "capture");
  kernels();
  check(cudaStreamEndCapture(stream, &graph), "end capture");
  check(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
  check(cudaGraphDestroy(graph), "graph");
  return exec;
}

void floors_for(int m, cudaStream_t stream) {
  const std::size_t bytes = static_cast<std::size_t>(m) * m * sizeof(float);
  const int quads = static_cast<int>(bytes / sizeof(float4));
  const int threads = 256;
  const int blocks = (quads + threads - 1) / threads;
  void* host = nullptr;
  void* device = nullptr;
  check(cudaHostAlloc(&host, bytes, cudaHostAllocMapped | cudaHostAllocPortable), "host");
  check(cudaMalloc(&device, bytes), "device");
  auto* host_quads = static_cast<float4*>(host);
  const auto wait = [&] { check(cudaStreamSynchronize(stream), "wait"); };
  const auto empty = [&] { empty_kernel<<<1, 32, 0, stream>>>(); };
  const auto write = [&] { write_frame<<<blocks, threads, 0, stream>>>(host_quads, quads, 1.0F); };

  cudaGraphExec_t graph3 = capture(stream, [&] {
    empty();
    empty();
    empty();
  });
  cudaGraphExec_t graph3_write = capture(stream, [&] {
    empty();
    empty();
    write();
  });

  std::vector<Case> cases{
      {"launch",
       [&] {
         empty();
         wait();
       },
       {}},
      {"graph3",
       [&] {
         check(cudaGraphLaunch(graph3, stream), "launch");
         wait();
       },
       {}},
      {"write",
       [&] {
         write();
         wait();
       },
       {}},
      {"graph3+write",
       [&] {
         check(cudaGraphLaunch(graph3_write, stream), "launch");
         wait();
       },
       {}},
      {"copy",
       [&] {
         empty();
         check(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream), "copy");
         wait();
       },
       {}},
  };
  for (int r = 0; r < rounds; ++r)
    for (Case& c : cases) c.medians.push_back(timed(c.call));
  check(cudaGetLastError(), "kernels");
  write();  // the copy row left the device buffer's contents in the host frame
  wait();
  if (static_cast<float*>(host)[bytes / sizeof(float) - 1] != 1.0F) {
    std::fprintf(stderr, "psfsim_cuda_delivery_floor_bench: the frame did not arrive\n");
    std::exit(1);
  }
  std::printf("M=%d (%zu KiB frame), median us per round:\n", m, bytes / 1024);
  for (const Case& c : cases) {
    std::printf("  %-13s", c.name.c_str());
    for (const double v : c.medians) std::printf(" %7.2f", v);
    std::printf("\n");
  }
  check(cudaGraphExecDestroy(graph3), "graph");
  check(cudaGraphExecDestroy(graph3_write), "graph");
  check(cudaFreeHost(host), "free host");
  check(cudaFree(device), "free device");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {128, 256};
  int devices = 0;
  if (static_cast<int>(cudaGetDeviceCount(&devices)) != 0 || devices == 0) {
    std::printf("no CUDA device here\n");
    return 0;
  }
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  for (const int m : sizes) {
    if (m < 2 || m % 2 != 0) {
      std::fprintf(stderr, "psfsim_cuda_delivery_floor_bench: M must be even, got %d\n", m);
      return 2;
    }
    floors_for(m, stream);
  }
  check(cudaStreamDestroy(stream), "stream");
  return 0;
}

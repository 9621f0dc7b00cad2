// What one PSF costs a caller who waits for it (a Python call, a lone `compute`), step by
// step, beside the floor of a round trip to the device: medians over many warm calls, float32,
// M = 2N, the whole M x M frame (the original question's shape), one Seidel term.
//   psfsim_cuda_lone_call_bench [N ...]      (default 16 64 128)
// Rows: an event recorded on an idle stream and waited for (the floor of any call); a 4-byte
// memset and its wait (one device operation); compute() with the frames to pinned host memory,
// split into submit()'s return and finish()'s wait; and with the frames kept on the device,
// left in the backend's memory or put in the caller's by submit_into().
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/builtin_backends.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int repeats = 3000;

double micro(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Median microseconds of `call`, after a warm-up.
template <typename Call>
double timed(Call&& call) {
  for (int i = 0; i < 50; ++i) call();
  std::vector<double> t(repeats);
  for (double& v : t) {
    const auto start = Clock::now();
    call();
    v = micro(Clock::now() - start);
  }
  return median(std::move(t));
}

psfsim::PsfPlan plan_for(int n, bool on_device) {
  psfsim::PsfPlan plan;
  plan.samples = n;
  plan.padded = 2 * n;
  plan.precision = psfsim::Precision::single;
  plan.normalization = psfsim::Normalization::none;
  plan.frame = 2 * n;
  plan.pixel_centre = n;
  plan.max_batch = 1;
  plan.frames_on_device = on_device;
  return psfsim::with_sampled_pupil(plan);
}

void check(cudaError_t status, const char* what) {
  if (static_cast<int>(status) == 0) return;  // cudaSuccess
  std::fprintf(stderr, "psfsim_cuda_lone_call_bench: %s: %s\n", what, cudaGetErrorString(status));
  std::exit(3);
}

void floors() {
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  void* word = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "event");
  check(cudaMalloc(&word, sizeof(int)), "cudaMalloc");
  const double event = timed([&] {
    check(cudaEventRecord(done, stream), "record");
    check(cudaEventSynchronize(done), "wait");
  });
  const double memset = timed([&] {
    check(cudaMemsetAsync(word, 0, sizeof(int), stream), "memset");
    check(cudaEventRecord(done, stream), "record");
    check(cudaEventSynchronize(done), "wait");
  });
  std::printf("floor: event and wait %.1f us; 4-byte memset and wait %.1f us\n", event, memset);
  check(cudaFree(word), "cudaFree");
  check(cudaEventDestroy(done), "event");
  check(cudaStreamDestroy(stream), "stream");
}

void lone_calls(int n) {
  const auto& entry = *psfsim::builtin_backends().find("cuda");
  psfsim::Aberration terms;
  terms.seidel = {{2, 1, 1.0}};
  const std::vector<psfsim::AberrationPolynomial> phases{psfsim::compile_phase(terms, 2)};
  {
    const auto backend = entry.create(plan_for(n, false));
    const double whole = timed([&] { (void)backend->compute(phases); });
    std::vector<double> submit(repeats), wait(repeats);
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = Clock::now();
      backend->submit(phases);
      const auto t1 = Clock::now();
      (void)backend->finish();
      submit[static_cast<std::size_t>(r)] = micro(t1 - t0);
      wait[static_cast<std::size_t>(r)] = micro(Clock::now() - t1);
    }
    std::printf(
        "N=%d to pinned host: compute %.1f us (submit returns after %.1f, finish waits %.1f)\n", n,
        whole, median(submit), median(wait));
  }
  const auto backend = entry.create(plan_for(n, true));
  int device = -1;
  const std::shared_ptr<void> out = backend->frame_memory(backend->plan().frame_bytes(), device);
  const double left = timed([&] { (void)backend->compute(phases); });
  const double into = timed([&] {
    backend->submit_into(phases, out.get());
    (void)backend->finish();
  });
  std::printf("N=%d on the device: compute %.1f us; submit_into the caller's memory %.1f us\n", n,
              left, into);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {16, 64, 128};
  const auto& entry = *psfsim::builtin_backends().find("cuda");
  if (entry.unusable_reason && !entry.unusable_reason().empty()) {
    std::printf("cuda backend not usable here: %s\n", entry.unusable_reason().c_str());
    return 0;
  }
  floors();
  for (const int n : sizes) lone_calls(n);
  return 0;
}

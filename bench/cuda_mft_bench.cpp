// The CUDA MFT backend's throughput against docs/spec.md §10 (H200, float32, B >= 1024: N=128, K=64
// >= 2.5M PSFs/s and N=64, K=32 >= 6M PSFs/s, frames in host memory), with what bounds it:
// the host's table packing, the stages timed one by one, the two cuBLAS products alone
// (cgemm, cgemm3m, the two layouts not taken and a 3xTF32 split on the tensor cores), the
// pupil kernel alone against a memset, and the pinned device-to-host copy of the same output.
//
//   psfsim_cuda_mft_bench [batch] [repeats]      (default 4096 frames, 30 repeats)
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_memory.hpp"
#include "mft_blas.hpp"
#include "phase_table_packing.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/pupil_math.hpp"
#include "pupil_kernel.hpp"
#include "stream_and_events.hpp"

namespace {

using psfsim::cuda::ComplexProduct;
using psfsim::cuda::DeviceBuffer;
using psfsim::cuda::GemmOperand;
using psfsim::cuda::PinnedBuffer;

struct Spread {
  double median, low, high;
};

Spread spread(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v[v.size() / 2], v.front(), v.back()};
}

psfsim::PsfPlan plan_for(int n, int k, int batch, bool stage_timing) {
  psfsim::PsfPlan plan;
  plan.samples = n;
  plan.padded = 2 * n;
  plan.precision = psfsim::Precision::single;
  plan.normalization = psfsim::Normalization::peak;
  plan.propagation = psfsim::Propagation::mft;
  plan.frame = k;
  plan.channels = {psfsim::SpectralChannel{0.5, 1.0, 1.0}};  // N/M: the FFT path's sampling
  plan.pixel_centre = k / 2;
  plan.max_batch = batch;
  plan.stage_timing = stage_timing;
  return psfsim::with_sampled_pupil(plan);
}

// Each frame a different defocus plus one wave of rho^2 cos(phi), as docs/spec.md §5's batches.
std::vector<psfsim::AberrationPolynomial> defocus_frames(int batch) {
  std::vector<psfsim::AberrationPolynomial> out;
  for (int i = 0; i < batch; ++i) {
    psfsim::Aberration t;
    t.seidel = {{2, 0, -1.0 + 2.0 * i / batch}, {2, 1, 1.0}};
    out.push_back(psfsim::compile_phase(t, 2));
  }
  return out;
}

void time_backend(int n, int k, int batch, int repeats) {
  const auto& entry = *psfsim::builtin_backends().find("cuda");
  const auto phases = defocus_frames(batch);
  {
    const auto backend = entry.create(plan_for(n, k, batch, false));
    for (int i = 0; i < 3; ++i) (void)backend->compute(phases);  // graphs recorded, clocks up
    std::vector<double> wall;
    std::vector<double> graph;
    for (int r = 0; r < repeats; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const psfsim::FrameBlock block = backend->compute(phases);
      wall.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      graph.push_back(block.times.stages.front().second);
    }
    const Spread w = spread(wall);
    const Spread g = spread(graph);
    std::printf(
        "mft N=%d K=%d B=%d float32 peak, to pinned host: %.3f ms median (%.3f-%.3f), "
        "%.0f PSFs/s (min %.0f, max %.0f); graph events %.3f ms; %s\n",
        n, k, batch, 1e3 * w.median, 1e3 * w.low, 1e3 * w.high, batch / w.median, batch / w.high,
        batch / w.low, 1e3 * g.median, backend->fused_stages().c_str());
  }
  const auto staged = entry.create(plan_for(n, k, batch, true));
  for (int i = 0; i < 2; ++i) (void)staged->compute(phases);
  std::map<std::string, std::vector<double>> stages;
  std::vector<std::string> order;
  for (int r = 0; r < repeats; ++r)
    for (const auto& [name, seconds] : staged->compute(phases).times.stages) {
      if (stages.find(name) == stages.end()) order.push_back(name);
      stages[name].push_back(seconds);
    }
  std::printf("  --stage-timing medians (no overlap):");
  for (const std::string& name : order)
    std::printf(" %s %.3f ms", name.c_str(), 1e3 * spread(stages[name]).median);
  std::printf("\n");
}

// The backend's two products for `frames` frames, alone, on a pupil of unit phasors.
void time_products(int n, int k, int frames, int repeats) {
  using C = float2;
  std::mt19937 random(1);
  std::uniform_real_distribution<float> turn(0.0f, 6.2831853f);
  const auto phasors = [&](std::size_t count) {
    std::vector<C> v(count);
    for (C& z : v) {
      const float a = turn(random);
      z = C{std::cos(a), std::sin(a)};
    }
    DeviceBuffer<C> d(count);
    PSFSIM_CUDA_CHECK(cudaMemcpy(d.data(), v.data(), count * sizeof(C), cudaMemcpyHostToDevice));
    return d;
  };
  const long long nn = 1LL * n * n;
  const long long nk = 1LL * n * k;
  const DeviceBuffer<C> pupils = phasors(static_cast<std::size_t>(frames * nn));
  const DeviceBuffer<C> a = phasors(static_cast<std::size_t>(nk));
  DeviceBuffer<C> t(static_cast<std::size_t>(frames * nk));
  DeviceBuffer<C> e(static_cast<std::size_t>(frames) * k * k);
  psfsim::cuda::Stream stream;
  psfsim::cuda::BlasHandle blas(stream.get());
  psfsim::cuda::Event start;
  psfsim::cuda::Event middle;
  psfsim::cuda::Event end;
  for (const ComplexProduct product : {ComplexProduct::four_real, ComplexProduct::gauss}) {
    std::vector<double> first;
    std::vector<double> second;
    for (int r = 0; r < repeats + 2; ++r) {
      PSFSIM_CUDA_CHECK(cudaEventRecord(start.get(), stream.get()));
      psfsim::cuda::gemm_strided_batched<float>(blas, k, frames * n, n, {a.data(), n, nk, true},
                                                {pupils.data(), n, frames * nn, false}, t.data(), k,
                                                frames * nk, 1, product);
      PSFSIM_CUDA_CHECK(cudaEventRecord(middle.get(), stream.get()));
      psfsim::cuda::gemm_strided_batched<float>(blas, k, k, n, {t.data(), k, nk, false},
                                                {a.data(), n, 0, false}, e.data(), k, 1LL * k * k,
                                                frames, product);
      PSFSIM_CUDA_CHECK(cudaEventRecord(end.get(), stream.get()));
      PSFSIM_CUDA_CHECK(cudaEventSynchronize(end.get()));
      if (r < 2) continue;
      first.push_back(psfsim::cuda::elapsed_seconds(start, middle));
      second.push_back(psfsim::cuda::elapsed_seconds(middle, end));
    }
    const double t1 = spread(first).median;
    const double t2 = spread(second).median;
    const double flops1 = 8.0 * frames * nn * k;
    const double flops2 = 8.0 * frames * nk * k;
    std::printf(
        "  products of %d frames, %s: T=P A^T %.3f ms (%.1f TFLOP/s), E=A T %.3f ms "
        "(%.1f TFLOP/s): %.0f frames/s\n",
        frames, product == ComplexProduct::gauss ? "cgemm3m" : "cgemm  ", 1e3 * t1,
        flops1 / t1 * 1e-12, 1e3 * t2, flops2 / t2 * 1e-12, frames / (t1 + t2));
  }
  // The layouts not taken, for comparison: U = A P first as a strided batch (the pupils' rows
  // contracted), then E = U A^T as one product; and T = P A^T as one tall product (the
  // pupils stored column-interleaved across frames).
  const auto time_pair = [&](const char* what, const auto& first_product,
                             const auto& second_product) {
    std::vector<double> times;
    for (int r = 0; r < repeats + 2; ++r) {
      PSFSIM_CUDA_CHECK(cudaEventRecord(start.get(), stream.get()));
      first_product();
      second_product();
      PSFSIM_CUDA_CHECK(cudaEventRecord(end.get(), stream.get()));
      PSFSIM_CUDA_CHECK(cudaEventSynchronize(end.get()));
      if (r >= 2) times.push_back(psfsim::cuda::elapsed_seconds(start, end));
    }
    const double t = spread(times).median;
    std::printf("  products of %d frames, %s: %.3f ms (%.1f TFLOP/s): %.0f frames/s\n", frames,
                what, 1e3 * t, 8.0 * frames * nk * (n + k) / t * 1e-12, frames / t);
  };
  time_pair(
      "U=A P batched, E=U A^T single",
      [&] {
        psfsim::cuda::gemm_strided_batched<float>(blas, n, k, n, {pupils.data(), n, nn, false},
                                                  {a.data(), n, 0, false}, t.data(), n, nk, frames);
      },
      [&] {
        psfsim::cuda::gemm_strided_batched<float>(blas, k, frames * k, n, {a.data(), n, nk, true},
                                                  {t.data(), n, frames * nk, false}, e.data(), k,
                                                  1LL * frames * k * k, 1);
      });
  time_pair(
      "T=P A^T tall single, E=A T batched",
      [&] {
        psfsim::cuda::gemm_strided_batched<float>(
            blas, frames * n, k, n, {pupils.data(), frames * n, frames * nn, false},
            {a.data(), n, nk, false}, t.data(), frames * n, frames * nk, 1);
      },
      [&] {
        psfsim::cuda::gemm_strided_batched<float>(blas, k, k, n, {t.data(), k, nk, false},
                                                  {a.data(), n, 0, false}, e.data(), k, 1LL * k * k,
                                                  frames);
      });
  // The products with real matrices (the grid's mirror symmetry folded into the pupils):
  // T = Q F^T as one sgemm over every frame's two planes of 2H rows, then E = F T batched over
  // frames and planes; H = N/2 classes of mirrored samples.
  {
    const int h2 = n;  // 2H
    DeviceBuffer<float> fr(static_cast<std::size_t>(k) * h2);
    DeviceBuffer<float> q(static_cast<std::size_t>(frames) * 2 * h2 * h2);
    DeviceBuffer<float> tr(static_cast<std::size_t>(frames) * 2 * h2 * k);
    DeviceBuffer<float> er(static_cast<std::size_t>(frames) * 2 * k * k);
    PSFSIM_CUDA_CHECK(cudaMemset(fr.data(), 0, fr.bytes()));
    PSFSIM_CUDA_CHECK(cudaMemset(q.data(), 0, q.bytes()));
    const long long rows = 2LL * frames * h2;  // every frame's two planes of 2H rows
    // T^T = F Q^T (K x rows, column-major) or T = Q F^T (rows x K); E per frame and plane.
    for (const bool tall : {false, true}) {
      std::vector<double> one, two;
      for (int r = 0; r < repeats + 2; ++r) {
        PSFSIM_CUDA_CHECK(cudaEventRecord(start.get(), stream.get()));
        if (tall)
          psfsim::cuda::real_gemm_strided_batched<float>(
              blas, static_cast<int>(rows), k, h2, {q.data(), h2, 0, true},
              {fr.data(), h2, 0, false}, tr.data(), static_cast<int>(rows), 0, 1);
        else
          psfsim::cuda::real_gemm_strided_batched<float>(
              blas, k, static_cast<int>(rows), h2, {fr.data(), h2, 0, true},
              {q.data(), h2, 0, false}, tr.data(), k, 0, 1);
        PSFSIM_CUDA_CHECK(cudaEventRecord(middle.get(), stream.get()));
        if (tall)
          psfsim::cuda::real_gemm_strided_batched<float>(
              blas, k, k, h2, {tr.data(), static_cast<int>(rows), h2, true},
              {fr.data(), h2, 0, false}, er.data(), k, 1LL * k * k, 2 * frames);
        else
          psfsim::cuda::real_gemm_strided_batched<float>(
              blas, k, k, h2, {tr.data(), k, 1LL * h2 * k, false}, {fr.data(), h2, 0, false},
              er.data(), k, 1LL * k * k, 2 * frames);
        PSFSIM_CUDA_CHECK(cudaEventRecord(end.get(), stream.get()));
        PSFSIM_CUDA_CHECK(cudaEventSynchronize(end.get()));
        if (r < 2) continue;
        one.push_back(psfsim::cuda::elapsed_seconds(start, middle));
        two.push_back(psfsim::cuda::elapsed_seconds(middle, end));
      }
      const double t1 = spread(one).median, t2 = spread(two).median;
      std::printf(
          "  products of %d frames, real (mirror-folded, %s): %.3f + %.3f ms (%.1f, %.1f "
          "TFLOP/s): %.0f frames/s\n",
          frames, tall ? "T = Q F^T tall" : "T^T = F Q^T", 1e3 * t1, 1e3 * t2,
          4.0 * frames * nn * k / t1 * 1e-12, 4.0 * frames * nk * k / t2 * 1e-12,
          frames / (t1 + t2));
    }
  }
}

// The two products as real tensor-core products on split operands (3xTF32): each float
// operand x = hi + lo, hi rounded to TF32, and the three larger of the four partial products
// summed in FP32. Timed against cgemm on the same shapes, with the extra traffic the split
// costs (the pupils written twice as wide, the intermediate split) as copies of those bytes.
void time_split_products(int n, int k, int frames, int repeats) {
  const long long nn = 1LL * n * n;
  const long long cols = 1LL * frames * n;  // GEMM 1's n: every frame's pupil rows
  DeviceBuffer<float> g1(static_cast<std::size_t>(2 * k) * 6 * n);          // [Ah | Ah | Al]
  DeviceBuffer<float> pupils(static_cast<std::size_t>(cols) * 4 * n);       // per row [hi | lo]
  DeviceBuffer<float> c1(static_cast<std::size_t>(cols) * 2 * k);           // T^T, interleaved
  DeviceBuffer<float> x(static_cast<std::size_t>(frames) * 2 * k * 2 * n);  // [Xh | Xl]
  DeviceBuffer<float> m2(static_cast<std::size_t>(3 * n) * 2 * k);          // [Mh; Mh; Ml]
  DeviceBuffer<float> y(static_cast<std::size_t>(frames) * 2 * k * 2 * k);
  DeviceBuffer<float> e(static_cast<std::size_t>(frames) * 2 * k * k);
  for (DeviceBuffer<float>* b : {&g1, &pupils, &c1, &x, &m2, &y, &e})
    PSFSIM_CUDA_CHECK(cudaMemset(b->data(), 0, b->bytes()));
  psfsim::cuda::Stream stream;
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate");
  cublasSetStream(handle, stream.get());
  const float one = 1.0f;
  const auto gemm = [&](int m, long long nc, int kc, const float* a, int lda, long long sa,
                        const float* b, int ldb, long long sb, float beta, float* c, int ldc,
                        long long sc, int batch) {
    if (cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, static_cast<int>(nc), kc,
                                   &one, a, CUDA_R_32F, lda, sa, b, CUDA_R_32F, ldb, sb, &beta, c,
                                   CUDA_R_32F, ldc, sc, batch, CUBLAS_COMPUTE_32F_FAST_TF32,
                                   CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS)
      throw std::runtime_error("cublasGemmStridedBatchedEx");
  };
  psfsim::cuda::Event start, first, split, second, end;
  std::vector<double> t1, ts, t2, te;
  const long long xs = 2LL * k * 2 * n;  // one frame of [Xh | Xl]
  for (int r = 0; r < repeats + 2; ++r) {
    PSFSIM_CUDA_CHECK(cudaEventRecord(start.get(), stream.get()));
    // T^T (2K x cols) = [Ah | Ah] [Ph; Pl] + Al Ph
    gemm(2 * k, cols, 4 * n, g1.data(), 2 * k, 0, pupils.data(), 4 * n, 0, 0.0f, c1.data(), 2 * k,
         0, 1);
    gemm(2 * k, cols, 2 * n, g1.data() + 2LL * k * 4 * n, 2 * k, 0, pupils.data(), 4 * n, 0, 1.0f,
         c1.data(), 2 * k, 0, 1);
    PSFSIM_CUDA_CHECK(cudaEventRecord(first.get(), stream.get()));
    // The split's traffic: read T^T, write it twice.
    PSFSIM_CUDA_CHECK(
        cudaMemcpyAsync(x.data(), c1.data(), c1.bytes(), cudaMemcpyDeviceToDevice, stream.get()));
    PSFSIM_CUDA_CHECK(cudaMemcpyAsync(x.data() + c1.bytes() / sizeof(float), c1.data(), c1.bytes(),
                                      cudaMemcpyDeviceToDevice, stream.get()));
    PSFSIM_CUDA_CHECK(cudaEventRecord(split.get(), stream.get()));
    // Y (2K x 2K per frame) = [Xh | Xl] [Mh; Mh] + Xh Ml
    gemm(2 * k, 2 * k, 2 * n, x.data(), 2 * k, xs, m2.data(), 2 * n, 0, 0.0f, y.data(), 2 * k,
         4LL * k * k, frames);
    gemm(2 * k, 2 * k, n, x.data(), 2 * k, xs, m2.data() + 2LL * n * 2 * k, n, 0, 1.0f, y.data(),
         2 * k, 4LL * k * k, frames);
    PSFSIM_CUDA_CHECK(cudaEventRecord(second.get(), stream.get()));
    // The combination into complex E: read Y, write E.
    PSFSIM_CUDA_CHECK(
        cudaMemcpyAsync(e.data(), y.data(), e.bytes(), cudaMemcpyDeviceToDevice, stream.get()));
    PSFSIM_CUDA_CHECK(cudaMemcpyAsync(e.data(), y.data() + e.bytes() / sizeof(float), e.bytes(),
                                      cudaMemcpyDeviceToDevice, stream.get()));
    PSFSIM_CUDA_CHECK(cudaEventRecord(end.get(), stream.get()));
    PSFSIM_CUDA_CHECK(cudaEventSynchronize(end.get()));
    if (r < 2) continue;
    t1.push_back(psfsim::cuda::elapsed_seconds(start, first));
    ts.push_back(psfsim::cuda::elapsed_seconds(first, split));
    t2.push_back(psfsim::cuda::elapsed_seconds(split, second));
    te.push_back(psfsim::cuda::elapsed_seconds(second, end));
  }
  cublasDestroy(handle);
  const double a = spread(t1).median, s = spread(ts).median, b = spread(t2).median,
               c = spread(te).median;
  std::printf(
      "  products of %d frames, 3xTF32 split: T %.3f ms (%.1f TFLOP/s as complex), split %.3f "
      "ms, E %.3f ms (%.1f), combine %.3f ms: %.0f frames/s (%.0f products only)\n",
      frames, 1e3 * a, 8.0 * frames * nn * k / a * 1e-12, 1e3 * s, 1e3 * b,
      8.0 * frames * n * k * k / b * 1e-12, 1e3 * c, frames / (a + s + b + c), frames / (a + b));
}

// The pupil kernel alone on `frames` frames, its tables in device memory or read over the
// bus from pinned host memory, against a memset of the same bytes (the write floor).
void time_pupils(int n, int frames, int repeats) {
  using C = float2;
  const auto polys = defocus_frames(frames);
  const psfsim::cuda::BatchTableLayout layout = psfsim::cuda::batch_table_layout(polys);
  PinnedBuffer<double> host_tables(layout.doubles());
  psfsim::cuda::pack_phase_tables(polys, layout, host_tables.data());
  DeviceBuffer<double> device_tables(layout.doubles());
  PSFSIM_CUDA_CHECK(cudaMemcpy(device_tables.data(), host_tables.data(), host_tables.bytes(),
                               cudaMemcpyHostToDevice));
  std::vector<double> grid(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) grid[i] = psfsim::pupil::coordinate(i, n, psfsim::Grid::centered);
  const double scale = 1.0;
  DeviceBuffer<double> d_grid(grid.size());
  DeviceBuffer<double> d_scale(1);
  PSFSIM_CUDA_CHECK(cudaMemcpy(d_grid.data(), grid.data(), d_grid.bytes(), cudaMemcpyHostToDevice));
  PSFSIM_CUDA_CHECK(cudaMemcpy(d_scale.data(), &scale, sizeof scale, cudaMemcpyHostToDevice));
  DeviceBuffer<C> pupils(static_cast<std::size_t>(frames) * n * n);
  const psfsim::cuda::ChannelPupils shape{n,
                                          0.0,
                                          d_grid.data(),
                                          d_scale.data(),
                                          1,
                                          static_cast<long long>(frames) * n * n,
                                          psfsim::cuda::PupilMaps{}};
  psfsim::cuda::Stream stream;
  psfsim::cuda::Event start;
  psfsim::cuda::Event end;
  const auto time = [&](const auto& issue) {
    std::vector<double> times;
    for (int r = 0; r < repeats + 2; ++r) {
      PSFSIM_CUDA_CHECK(cudaEventRecord(start.get(), stream.get()));
      issue();
      PSFSIM_CUDA_CHECK(cudaEventRecord(end.get(), stream.get()));
      PSFSIM_CUDA_CHECK(cudaEventSynchronize(end.get()));
      if (r >= 2) times.push_back(psfsim::cuda::elapsed_seconds(start, end));
    }
    return spread(times).median;
  };
  const auto pupil_time = [&](const double* tables) {
    return time([&] {
      psfsim::cuda::launch_build_channel_pupils<float>(
          pupils.data(), shape, {tables, layout.degree, layout.with_rho, frames}, stream.get());
    });
  };
  const double on_device = pupil_time(device_tables.data());
  const double over_bus = pupil_time(psfsim::cuda::device_view(host_tables));
  const double memset = time(
      [&] { PSFSIM_CUDA_CHECK(cudaMemsetAsync(pupils.data(), 1, pupils.bytes(), stream.get())); });
  std::printf(
      "  pupils of %d frames: %.3f ms (tables on the device), %.3f ms (tables over the "
      "bus); a memset of their %.0f MB %.3f ms (%.2f TB/s)\n",
      frames, 1e3 * on_device, 1e3 * over_bus, pupils.bytes() * 1e-6, 1e3 * memset,
      pupils.bytes() / memset * 1e-12);
}

// What compute() does on the host before its graph starts: the batch's tables laid out.
void time_table_packing(int batch, int repeats) {
  const auto phases = defocus_frames(batch);
  const psfsim::cuda::BatchTableLayout layout = psfsim::cuda::batch_table_layout(phases);
  PinnedBuffer<double> staged(layout.doubles());
  std::vector<double> times;
  for (int r = 0; r < repeats + 2; ++r) {
    const auto start = std::chrono::steady_clock::now();
    psfsim::cuda::pack_phase_tables(phases, psfsim::cuda::batch_table_layout(phases),
                                    staged.data());
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::printf("  host: the tables of %d frames laid out in %.3f ms\n", batch,
              1e3 * spread(times).median);
}

void time_copy(int k, int batch, int repeats) {
  const std::size_t count = static_cast<std::size_t>(batch) * k * k;
  DeviceBuffer<float> device(count);
  PinnedBuffer<float> host(count);
  PSFSIM_CUDA_CHECK(cudaMemset(device.data(), 1, device.bytes()));
  psfsim::cuda::Stream stream;
  psfsim::cuda::Event start;
  psfsim::cuda::Event end;
  std::vector<double> times;
  for (int r = 0; r < repeats + 2; ++r) {
    PSFSIM_CUDA_CHECK(cudaEventRecord(start.get(), stream.get()));
    PSFSIM_CUDA_CHECK(cudaMemcpyAsync(host.data(), device.data(), device.bytes(),
                                      cudaMemcpyDeviceToHost, stream.get()));
    PSFSIM_CUDA_CHECK(cudaEventRecord(end.get(), stream.get()));
    PSFSIM_CUDA_CHECK(cudaEventSynchronize(end.get()));
    if (r >= 2) times.push_back(psfsim::cuda::elapsed_seconds(start, end));
  }
  const double t = spread(times).median;
  std::printf("  pinned copy of the output alone: %.3f ms (%.1f GB/s): the floor, %.0f PSFs/s\n",
              1e3 * t, device.bytes() / t * 1e-9, batch / t);
}

}  // namespace

int main(int argc, char** argv) {
  const int batch = argc > 1 ? std::atoi(argv[1]) : 4096;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 30;
  try {
    const std::string why = psfsim::builtin_backends().find("cuda")->unusable_reason();
    if (!why.empty()) {
      std::printf("skipped: %s\n", why.c_str());
      return 0;
    }
    time_table_packing(batch, repeats);
    for (const auto& [n, k] : {std::pair{128, 64}, std::pair{64, 32}}) {
      time_backend(n, k, batch, repeats);
      time_products(n, k, std::min(batch, 1024), repeats);
      time_split_products(n, k, std::min(batch, 1024), repeats);
      time_pupils(n, batch, repeats);
      time_copy(k, batch, repeats);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "psfsim_cuda_mft_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}

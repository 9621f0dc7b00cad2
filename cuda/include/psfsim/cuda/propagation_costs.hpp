#pragma once
// The CUDA backend's cost model for --propagation auto: one frame's FFT and MFT in cuFFT
// operations. Header-only plain C++, so that builds without CUDA test it too.
#include <cmath>

#include "psfsim/backend_registry.hpp"
#include "psfsim/cuda/tuning.hpp"

namespace psfsim::cuda {

// cuFFT transforms the whole M x M plane (N columns, then M rows); cuBLAS's two complex
// products of N x N x K and K x N x K run faster per operation, and each call's copy
// overlaps the next call. A call of few frames is the FFT's: the products' fixed cost a call
// is more than those frames save.
[[nodiscard]] inline PropagationCosts propagation_costs(const PropagationWork& work) {
  const double n = work.samples, m = work.padded, k = work.frame;
  const double transform = m * std::log2(m) * 5.0;        // real operations of one length-M FFT
  const double products = (n * n * k + n * k * k) * 8.0;  // the MFT's two complex products
  return {(n + m) * transform, products / tuning::mft_products_speedup,
          tuning::fft_up_to_frames(work.samples, work.frame >= work.padded)};
}

// Seconds of `work` on the device once started, for --backend auto: its frames' operations,
// and its stored frames over the bus.
[[nodiscard]] inline double run_seconds(const RunWork& work) {
  const double per_frame = propagation_cost(propagation_costs(work.frame), work);
  return work.propagations * per_frame / tuning::operations_per_second +
         work.stored_frames * work.frame_bytes / tuning::bus_bytes_per_second;
}

}  // namespace psfsim::cuda

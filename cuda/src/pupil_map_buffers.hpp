#pragma once
// The plan's pupil maps (docs/spec.md §7) on the device, uploaded once per plan, and the pinned
// batch
// indices by which a call's pupil kernel picks each frame's maps. Shared by the cuFFT and
// cuBLAS backends (host code only: the kernels see PupilMaps).
#include <cstddef>
#include <span>
#include <vector>

#include "call_queue.hpp"
#include "device_memory.hpp"
#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/pupil_sampling.hpp"
#include "pupil_kernel.hpp"

namespace psfsim::cuda {

class PupilMapBuffers {
 public:
  PupilMapBuffers() = default;
  PupilMapBuffers(const SampledPupil& facts, int max_batch)
      : amplitude_(upload(facts.amplitude)), opd_(upload(facts.opd)) {
    maps_.amplitude = amplitude_.data();
    maps_.opd = opd_.data();
    maps_.amplitude_stride = static_cast<long long>(facts.amplitude_stride());
    maps_.opd_stride = static_cast<long long>(facts.opd_stride());
    // Indices only where they matter: maps that differ by frame, or an OPD map that the
    // aberration-free reference frame (index -1) must leave out.
    if (facts.amplitude_maps > 1 || !facts.opd.empty()) {
      batch_ = static_cast<std::size_t>(max_batch);
      indices_ = PinnedBuffer<long long>(call_slots * batch_);
      maps_.batch_index = device_view(indices_);
    }
  }

  // Device bytes the maps take, for the memory estimate.
  [[nodiscard]] static std::size_t bytes(const SampledPupil& facts) noexcept {
    return (facts.amplitude.size() + facts.opd.size()) * sizeof(double);
  }

  // Before a call's launch: its frames' batch indices, in its slot (CallQueue), which no
  // call in flight reads.
  void set_frames(std::span<const AberrationPolynomial> frames, int slot) {
    if (indices_.data() == nullptr) return;
    long long* out = indices_.data() + static_cast<std::size_t>(slot) * batch_;
    for (std::size_t f = 0; f < frames.size(); ++f) out[f] = frames[f].batch_index;
  }

  // The maps as the kernel of a call in `slot` reads them, from call frame `first` on.
  [[nodiscard]] PupilMaps maps(int slot, int first = 0) const noexcept {
    PupilMaps m = maps_;
    if (m.batch_index != nullptr)
      m.batch_index += static_cast<std::size_t>(slot) * batch_ + static_cast<std::size_t>(first);
    return m;
  }

 private:
  static DeviceBuffer<double> upload(const std::vector<double>& values) {
    DeviceBuffer<double> buffer(values.size());
    if (!values.empty())
      PSFSIM_CUDA_CHECK(
          cudaMemcpy(buffer.data(), values.data(), buffer.bytes(), cudaMemcpyHostToDevice));
    return buffer;
  }

  DeviceBuffer<double> amplitude_;
  DeviceBuffer<double> opd_;
  PinnedBuffer<long long> indices_;  // call_slots runs of max_batch
  std::size_t batch_ = 0;
  PupilMaps maps_;
};

}  // namespace psfsim::cuda

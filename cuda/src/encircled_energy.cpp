#include "encircled_energy.hpp"

#include <algorithm>
#include <vector>

#include "cuda_check.hpp"
#include "psfsim/encircled_energy_weights.hpp"

namespace psfsim::cuda {
namespace {

// The pupils' padded transforms of one chunk stay under this, for any batch and spectrum
// (one frame's channels at least).
constexpr std::size_t chunk_buffer_limit = std::size_t{256} << 20;

int period_of(const PsfPlan& plan, bool from_planes) {
  return from_planes ? plan.padded / encircled_energy_stride(plan.samples, plan.padded)
                     : encircled_energy_period(plan.samples);
}

template <typename Real>
int chunk_frames(const PsfPlan& plan, int period) {
  const std::size_t per_frame = plan.channels.size() * static_cast<std::size_t>(period) * period *
                                sizeof(DeviceComplex<Real>);
  return static_cast<int>(std::clamp<std::size_t>(chunk_buffer_limit / per_frame, 1,
                                                  static_cast<std::size_t>(plan.max_batch)));
}

}  // namespace

template <typename Real>
bool DeviceEncircledEnergy<Real>::planes_serve(const PsfPlan& plan) {
  return plan.propagation == Propagation::fft &&
         encircled_energy_stride(plan.samples, plan.padded) > 0;
}

template <typename Real>
std::size_t DeviceEncircledEnergy<Real>::device_bytes(const PsfPlan& plan, bool from_planes) {
  const std::size_t period = static_cast<std::size_t>(period_of(plan, from_planes));
  const std::size_t half = period / 2 + 1;
  const std::size_t channels = plan.channels.size();
  std::size_t bytes =
      channels * (plan.metrics.ee_radii.size() * half * half * sizeof(Real) + sizeof(double));
  if (!from_planes) {
    const long long chunk = chunk_frames<Real>(plan, static_cast<int>(period));
    const long long transforms = chunk * static_cast<long long>(channels);
    bytes += static_cast<std::size_t>(transforms) * period * period * sizeof(Complex);
    bytes += FftPlan::work_bytes({static_cast<int>(period), transforms, 2, FftInput::complex},
                                 precision_of<Real>);
  }
  return bytes;
}

template <typename Real>
DeviceEncircledEnergy<Real>::DeviceEncircledEnergy(const PsfPlan& plan, bool from_planes,
                                                   cudaStream_t stream)
    : padded_(plan.padded),
      stride_(from_planes ? encircled_energy_stride(plan.samples, plan.padded) : 0) {
  const int period = period_of(plan, from_planes);
  const EncircledEnergyWeights w = encircled_energy_weights(plan, period, plan.threads);
  // Rounded once to the frames' precision: a float table errs by 6e-8 of each weight.
  const std::vector<Real> tables(w.tables.begin(), w.tables.end());
  table_data_ = DeviceBuffer<Real>(tables.size());
  PSFSIM_CUDA_CHECK(
      cudaMemcpy(table_data_.data(), tables.data(), table_data_.bytes(), cudaMemcpyHostToDevice));
  scales_ = DeviceBuffer<double>(w.scales.size());
  PSFSIM_CUDA_CHECK(
      cudaMemcpy(scales_.data(), w.scales.data(), scales_.bytes(), cudaMemcpyHostToDevice));
  const MetricColumn* column = plan.metrics.column(Metric::ee);
  tables_.tables = table_data_.data();
  tables_.scales = scales_.data();
  tables_.period = period;
  tables_.half = w.half;
  tables_.channels = w.channels;
  tables_.radii = w.radii;
  tables_.values_per_frame = static_cast<int>(plan.metrics.values_per_frame);
  tables_.column = column != nullptr ? static_cast<int>(column->offset) : 0;
  if (from_planes) return;
  chunk_frames_ = chunk_frames<Real>(plan, period);
  const long long transforms = static_cast<long long>(chunk_frames_) * w.channels;
  grid_ = DeviceBuffer<Complex>(static_cast<std::size_t>(transforms) * period * period);
  // Every element is written before each transform; zeros keep stale chunks finite.
  PSFSIM_CUDA_CHECK(cudaMemset(grid_.data(), 0, grid_.bytes()));
  fft_ = std::make_unique<FftPlan>(FftShape{period, transforms, 2, FftInput::complex},
                                   precision_of<Real>, stream);
}

template <typename Real>
void DeviceEncircledEnergy<Real>::from_planes(const Complex* fields, const Real* intensity,
                                              long long frame_stride, int frames, double* out,
                                              cudaStream_t stream) const {
  const EePlanes<Real> planes{fields, intensity, frame_stride, padded_, stride_, padded_ / 2};
  launch_ee_from_planes<Real>(planes, tables_, frames, out, stream);
}

// Chunk by chunk: pad every channel of the chunk's frames, transform them all in place (the
// plan's whole batch: a short last chunk transforms stale ones too, never read), then sum.
template <typename Real>
void DeviceEncircledEnergy<Real>::from_pupils(const EePupils<Real>& pupils, int frames, double* out,
                                              cudaStream_t stream) const {
  for (int first = 0; first < frames; first += chunk_frames_) {
    const int count = std::min(chunk_frames_, frames - first);
    launch_ee_pad<Real>(grid_.data(), pupils, first, count, tables_.channels, tables_.period,
                        stream);
    fft_->forward(grid_.data(), grid_.data());
    launch_ee_from_grid<Real>(grid_.data(), tables_, count,
                              out + static_cast<long long>(first) * tables_.values_per_frame,
                              stream);
  }
}

template class DeviceEncircledEnergy<float>;
template class DeviceEncircledEnergy<double>;

}  // namespace psfsim::cuda

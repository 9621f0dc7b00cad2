#include "train_stage.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "column_twiddles.hpp"
#include "cuda_check.hpp"
#include "periodic_pass_kernel.hpp"
#include "psfsim/cuda/folded_pass.hpp"
#include "train_kernels.hpp"

namespace psfsim::cuda {
namespace {

constexpr std::size_t every_lane = std::numeric_limits<std::size_t>::max();

// The largest pass computed by products, by cuFFT's 2D transforms and by the kernels that
// skip the padding, of those run on `lane` of `lanes` (every_lane: of all), and the largest
// Theta of those that may run folded.
struct PassSizes {
  std::size_t matrices = 0, periodic = 0, skipping = 0, folded_half = 0;
  // A pass's focal-plane buffer per frame: m x m, or N x m for one that skips the padding.
  [[nodiscard]] std::size_t focal(std::size_t n) const {
    return std::max({matrices * matrices, periodic * periodic, n * skipping});
  }
};
PassSizes largest_passes(const ChannelTrain& channel, std::size_t n, std::size_t lane = every_lane,
                         std::size_t lanes = 1) {
  PassSizes sizes;
  for (const TrainStep& s : channel.steps)
    for (std::size_t i = 0; i < s.passes.size(); ++i) {
      if (lane != every_lane && i % lanes != lane) continue;
      const MaskPass& p = s.passes[i];
      const bool skipping =
          p.periodic() && periodic_pass_skips_padding(static_cast<int>(n), p.points);
      std::size_t& m = skipping ? sizes.skipping : p.periodic() ? sizes.periodic : sizes.matrices;
      m = std::max<std::size_t>(m, p.points);
      if (const std::optional<WindowFold> w = window_fold(p))
        sizes.folded_half = std::max<std::size_t>(sizes.folded_half, w->half);
    }
  return sizes;
}

std::size_t most_passes(const ChannelTrain& channel) {
  std::size_t most = 0;
  for (const TrainStep& s : channel.steps) most = std::max(most, s.passes.size());
  return most;
}

// The lanes a stage of `frames` frames runs its masks' passes on.
std::size_t lanes_for(const ChannelTrain& channel, int frames) {
  if (frames > side_by_side_frames) return 1;
  return std::clamp<std::size_t>(most_passes(channel), 1, max_shares);
}

// A lane's work buffers per frame, in complex values: rows, focal plane, back; lane 0's
// also hold a folded pass's window side, and it has the folded field and sum (4 P^2 each)
// beside them.
struct LaneElements {
  std::size_t rows = 0, focal = 0, back = 0, folded = 0;
};
LaneElements first_lane_elements(const ChannelTrain& channel, std::size_t n) {
  const PassSizes m = largest_passes(channel, n);
  const std::size_t p = (n + 1) / 2, t = m.folded_half;
  return {std::max(n * m.matrices, 4 * p * t), std::max(m.focal(n), 4 * t * t), m.matrices * n,
          t > 0 ? 8 * p * p : 0};
}
LaneElements side_lane_elements(const ChannelTrain& channel, std::size_t lane, std::size_t lanes,
                                std::size_t n) {
  const PassSizes m = largest_passes(channel, n, lane, lanes);
  return {n * m.matrices, m.focal(n), m.matrices * n};
}

template <typename T>
DeviceBuffer<T> uploaded(const std::vector<T>& host) {
  DeviceBuffer<T> d(host.size());
  if (!host.empty())
    PSFSIM_CUDA_CHECK(
        cudaMemcpy(d.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename Complex>
std::vector<Complex> rounded(const std::vector<Complex128>& v) {
  using Real = decltype(Complex{}.x);
  std::vector<Complex> out;
  out.reserve(v.size());
  for (const Complex128& z : v)
    out.push_back(Complex{static_cast<Real>(z.real()), static_cast<Real>(z.imag())});
  return out;
}

template <typename Real>
std::vector<Real> rounded_reals(const std::vector<double>& v) {
  return std::vector<Real>(v.begin(), v.end());
}

}  // namespace

template <typename Real>
std::size_t TrainStage<Real>::bytes_per_frame(const ChannelTrain& channel, int samples) {
  const std::size_t n = samples;
  const PassSizes m = largest_passes(channel, n);
  const LaneElements e = first_lane_elements(channel, n);
  return (e.rows + e.focal + e.back + e.folded + n * n + m.periodic * m.periodic) * sizeof(Complex);
}

template <typename Real>
std::size_t TrainStage<Real>::constant_bytes(const ChannelTrain& channel, int samples, int frames) {
  std::size_t bytes = 0;
  const std::size_t n = samples;
  for (const TrainStep& s : channel.steps) {
    bytes += s.stop.size() * sizeof(Real);
    for (const MaskPass& p : s.passes) {
      const std::size_t m = p.points;
      bytes += (p.periodic() ? n + m + m * m : 2 * n * m + m * m) * sizeof(Complex);
      if (const std::optional<WindowFold> w = window_fold(p)) {
        const std::size_t t = w->half, width = (n + 1) / 2;
        bytes += 8 * t * width * sizeof(Real) + t * t * sizeof(Complex) + 2 * width * sizeof(int);
      }
    }
  }
  const std::size_t lanes = lanes_for(channel, frames);
  for (std::size_t lane = 1; lane < lanes; ++lane) {
    const LaneElements e = side_lane_elements(channel, lane, lanes, n);
    const std::size_t fft_work = largest_passes(channel, n, lane, lanes).periodic;
    bytes += BlasHandle::workspace_bytes +
             static_cast<std::size_t>(frames) *
                 (e.rows + e.focal + e.back + n * n + fft_work * fft_work) * sizeof(Complex);
  }
  return bytes;
}

template <typename Real>
TrainStage<Real>::SideLane::SideLane(std::size_t rows, std::size_t focal, std::size_t back,
                                     std::size_t share)
    : blas(stream.get()), rows(rows), focal(focal), back(back), share(share) {
  // As the backend's own padded fields: a periodic pass's stale ones are initialised too.
  PSFSIM_CUDA_CHECK(cudaMemsetAsync(this->focal.data(), 0, this->focal.bytes(), stream.get()));
  PSFSIM_CUDA_CHECK(cudaStreamSynchronize(stream.get()));
}

template <typename Real>
TrainStage<Real>::TrainStage(const ChannelTrain& channel, const std::vector<double>& coordinates,
                             int frames, cudaStream_t stream)
    : samples_(static_cast<int>(coordinates.size())) {
  const std::size_t n = coordinates.size(), f = frames;
  const std::size_t lanes = lanes_for(channel, frames);
  // Folded passes run in turn only: side by side, a call's time is its launches', and a
  // folded pass has three more.
  const FoldedAxis axis = lanes == 1 ? fold_axis(coordinates) : FoldedAxis{};
  for (std::size_t lane = 1; lane < lanes; ++lane) {
    const LaneElements e = side_lane_elements(channel, lane, lanes, n);
    side_lanes_.push_back(
        std::make_unique<SideLane>(f * e.rows, f * e.focal, f * e.back, f * n * n));
  }
  if (lanes > 1) forked_ = std::make_unique<Event>(cudaEventDisableTiming);
  const Precision precision =
      sizeof(Real) == sizeof(float) ? Precision::single : Precision::double_;
  for (const TrainStep& s : channel.steps) {
    Step step;
    step.stop = s.kind == TrainStep::Kind::stop;
    // A periodic pass whose transforms skip the padding stays unfolded: they take fewer
    // operations and bytes than the fold's products.
    std::vector<std::optional<FoldedPass>> folded;
    for (const MaskPass& p : s.passes)
      folded.push_back(p.periodic() && periodic_pass_skips_padding(samples_, p.points)
                           ? std::nullopt
                           : fold_pass(axis, p));
    // Folded where every pass computed by products folds (FFT passes add to a share).
    bool any = false, all = true;
    for (std::size_t i = 0; i < s.passes.size(); ++i) {
      any |= folded[i].has_value();
      all &= folded[i].has_value() || s.passes[i].periodic();
    }
    step.folded = any && all;
    step.keep = static_cast<Real>(s.keep);
    if (step.stop) {
      std::vector<Real> mask(s.stop.begin(), s.stop.end());
      step.mask = uploaded(mask);
    }
    for (std::size_t i = 0; i < s.passes.size(); ++i) {
      const MaskPass& p = s.passes[i];
      Pass pass;
      pass.points = p.points;
      pass.lane = step.passes.size() % lanes;
      // A folded pass reads only its folded weights: the full ones stay on the host.
      if (step.folded && folded[i]) {
        pass.half = folded[i]->half;
        pass.parities = folded[i]->parities;
        pass.folded_forward = uploaded(rounded_reals<Real>(folded[i]->forward));
        pass.folded_inverse = uploaded(rounded_reals<Real>(folded[i]->inverse));
        pass.folded_weights = uploaded(rounded<Complex>(folded[i]->weights));
      } else if (p.periodic()) {
        pass.weights = uploaded(rounded<Complex>(p.weights));
        pass.twist = uploaded(rounded<Complex>(p.twist));
        const cudaStream_t on = pass.lane == 0 ? stream : side_lanes_[pass.lane - 1]->stream.get();
        pass.skips_padding = periodic_pass_skips_padding(samples_, p.points);
        if (pass.skips_padding) {
          pass.twiddles = column_twiddles<Real>(p.points);
          prepare_periodic_pass<Real>(p.points);
        } else {
          pass.fft = std::make_unique<FftPlan>(FftShape{p.points, frames}, precision, on);
        }
      } else {
        pass.weights = uploaded(rounded<Complex>(p.weights));
        pass.forward = uploaded(rounded<Complex>(p.forward));
        pass.inverse = uploaded(rounded<Complex>(p.inverse));
      }
      step.passes.push_back(std::move(pass));
    }
    steps_.push_back(std::move(step));
  }
  if (largest_passes(channel, n).focal(n) > 0) {
    const LaneElements e = first_lane_elements(channel, n);
    rows_ = DeviceBuffer<Complex>(f * e.rows);
    focal_ = DeviceBuffer<Complex>(f * e.focal);
    back_ = DeviceBuffer<Complex>(f * e.back);
    share_ = DeviceBuffer<Complex>(f * n * n);
    // A periodic pass transforms every frame's padded field, the stale ones of a short call
    // too: none is left uninitialised.
    PSFSIM_CUDA_CHECK(cudaMemset(focal_.data(), 0, focal_.bytes()));
  }
  if (std::any_of(steps_.begin(), steps_.end(), [](const Step& s) { return s.folded; })) {
    fold_positive_ = uploaded(axis.positive);
    fold_negative_ = uploaded(axis.negative);
    grid_ = {fold_positive_.data(), fold_negative_.data(), axis.layout.sums, samples_};
    const std::size_t p = static_cast<std::size_t>(axis.layout.sums);
    folded_in_ = DeviceBuffer<Real>(f * 8 * p * p);
    folded_out_ = DeviceBuffer<Real>(f * 8 * p * p);
  }
}

template <typename Real>
PeriodicPass<Real> TrainStage<Real>::periodic(const Pass& p) const {
  return {p.twist.data(), p.twiddles.data(), p.weights.data(), samples_, p.points};
}

template <typename Real>
typename TrainStage<Real>::Lane TrainStage<Real>::lane(std::size_t index, const BlasHandle& blas,
                                                       cudaStream_t stream) const {
  if (index == 0) return {&blas, stream, rows_.data(), focal_.data(), back_.data(), share_.data()};
  SideLane& side = *side_lanes_[index - 1];
  return {&side.blas,        side.stream.get(), side.rows.data(),
          side.focal.data(), side.back.data(),  side.share.data()};
}

// A mask followed by a stop (a coronagraph's Lyot stop) takes the stop into its sum.
template <typename Real>
void TrainStage<Real>::issue(const BlasHandle& blas, Complex* fields, int count,
                             cudaStream_t stream) const {
  const long long n2 = static_cast<long long>(samples_) * samples_;
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    const Step& s = steps_[i];
    if (s.stop) {
      launch_multiply_real<Real>(fields, s.mask.data(), n2, count, stream);
      continue;
    }
    const bool stop_next = i + 1 < steps_.size() && steps_[i + 1].stop;
    const Real* then_stop = stop_next ? steps_[i + 1].mask.data() : nullptr;
    if (s.folded) issue_folded_mask(s, blas, fields, count, then_stop, stream);
    else issue_mask(s, blas, fields, count, then_stop, stream);
    if (stop_next) ++i;
  }
}

// Pass i on lane i mod L, the first on each lane writing its share and the others adding to
// it; the backend's stream waits on every side lane that ran, then sums.
template <typename Real>
void TrainStage<Real>::issue_mask(const Step& s, const BlasHandle& blas, Complex* fields, int count,
                                  const Real* then_stop, cudaStream_t stream) const {
  const std::size_t lanes = std::min(s.passes.size(), side_lanes_.size() + 1);
  if (lanes > 1) PSFSIM_CUDA_CHECK(cudaEventRecord(forked_->get(), stream));
  for (std::size_t i = 0; i < s.passes.size(); ++i) {
    const Pass& p = s.passes[i];
    const Lane at = lane(p.lane, blas, stream);
    if (p.lane > 0 && i < lanes)
      PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(at.stream, forked_->get(), 0));
    issue_transform(p, at, fields, count);
    issue_share(p, at, count, i >= lanes);
  }
  Shares<Real> shares;
  for (std::size_t l = 0; l < lanes; ++l) {
    const Lane at = lane(l, blas, stream);
    shares.data[shares.count++] = at.share;
    if (l == 0) continue;
    const Event& done = side_lanes_[l - 1]->done;
    PSFSIM_CUDA_CHECK(cudaEventRecord(done.get(), at.stream));
    PSFSIM_CUDA_CHECK(cudaStreamWaitEvent(stream, done.get(), 0));
  }
  launch_sum_shares<Real>(fields, s.keep, shares, then_stop,
                          static_cast<long long>(samples_) * samples_, count, stream);
}

// In cuBLAS's column-major terms a row-major R x C matrix is the C x R of its transpose; per
// frame, with A the pass's m x N forward matrix and B = A^H its N x m inverse:
//   rows = P A^T (N x m)     as rows^T = A P^T, one product over the frames side by side;
//   F = A rows (m x m)       as F^T = rows^T A^T, batched over the frames;
//   F .*= G
//   back = F B^T (m x N)     as back^T = B F^T, batched;
//   S (+)= B back (N x N)    as S^T = back^T B^T, batched, into the lane's share (issue_share).
// A periodic pass is S (+)= V* conj(F conj(G .* F (V P V) F) F) V* (MaskPass::twist): forward
// transforms only, the inverse by conjugation, in place on the padded fields. Skipping the
// padding (periodic_pass_kernel.hpp), the field's N rows alone are stored, the twist and the
// crop inside the rows' kernels.
template <typename Real>
void TrainStage<Real>::issue_transform(const Pass& p, const Lane& at, const Complex* fields,
                                       int count) const {
  const int n = samples_, m = p.points;
  const long long nm = static_cast<long long>(n) * m;
  const long long mm = static_cast<long long>(m) * m;
  if (p.skips_padding) {
    launch_periodic_transform<Real>(at.focal, fields, periodic(p), count, at.stream);
    return;
  }
  if (p.fft) {
    launch_pad_twisted<Real>(at.focal, fields, p.twist.data(), n, m, count, at.stream);
    p.fft->forward(at.focal, at.focal);
    launch_weight_conjugate<Real>(at.focal, p.weights.data(), mm, count, at.stream);
    p.fft->forward(at.focal, at.focal);
    return;
  }
  const BlasHandle& blas = *at.blas;
  gemm_strided_batched<Real>(blas, m, count * n, n, {p.forward.data(), n, 0, true},
                             {fields, n, 0, false}, at.rows, m, 0, 1);
  gemm_strided_batched<Real>(blas, m, m, n, {at.rows, m, nm, false},
                             {p.forward.data(), n, 0, false}, at.focal, m, mm, count);
  launch_multiply_complex<Real>(at.focal, p.weights.data(), mm, count, at.stream);
  gemm_strided_batched<Real>(blas, n, m, m, {p.inverse.data(), m, 0, true},
                             {at.focal, m, mm, false}, at.back, n, nm, count);
}

template <typename Real>
void TrainStage<Real>::issue_share(const Pass& p, const Lane& at, int count,
                                   bool accumulate) const {
  const int n = samples_, m = p.points;
  const long long n2 = static_cast<long long>(n) * n;
  if (p.skips_padding) {
    launch_periodic_crop<Real>(at.share, at.focal, periodic(p), count, accumulate, at.stream);
    return;
  }
  if (p.fft) {
    launch_crop_twisted_add<Real>(at.share, at.focal, p.twist.data(), n, m, count, accumulate,
                                  at.stream);
    return;
  }
  gemm_strided_batched<Real>(*at.blas, n, n, m, {at.back, n, static_cast<long long>(n) * m, false},
                             {p.inverse.data(), m, 0, false}, at.share, n, n2, count,
                             ComplexProduct::four_real, accumulate);
}

// A folded mask (psfsim/cuda/folded_pass.hpp) in real products, with P the folded positions,
// T = Theta, F = count, each block's real and imaginary planes side by side
// (folded_pass_kernels.hpp's layouts). The field is folded once; each pass then takes, per x
// parity, the blocks' (y parity, y, frame, plane) columns times its T x P matrix, per parity
// the (frame, plane, theta_x) rows times the matrix's transpose over y, its weights, and the
// same back with its P x T matrices, the last product adding into the passes' sum. The
// matrices are stored even, odd, even, odd, so one strided batch takes every parity. An FFT
// pass (a vortex's outermost) runs first, as in issue_mask, into lane 0's share.
template <typename Real>
void TrainStage<Real>::issue_folded_mask(const Step& s, const BlasHandle& blas, Complex* fields,
                                         int count, const Real* then_stop,
                                         cudaStream_t stream) const {
  const int w = grid_.width;
  const long long f = count;
  Real* in = folded_in_.data();
  Real* out = folded_out_.data();
  Real* middle = reinterpret_cast<Real*>(rows_.data());
  Real* window = reinterpret_cast<Real*>(focal_.data());
  bool shared = false, summed = false;
  for (const Pass& p : s.passes) {
    if (!p.by_transforms()) continue;
    const Lane at = lane(0, blas, stream);
    issue_transform(p, at, fields, count);
    issue_share(p, at, count, shared);
    shared = true;
  }
  launch_fold_fields<Real>(in, fields, grid_, count, stream);
  for (const Pass& p : s.passes) {
    if (p.by_transforms()) continue;
    const int t = p.half;
    const long long pt = static_cast<long long>(w) * t;
    real_gemm_strided_batched<Real>(blas, t, static_cast<int>(4 * w * f), w,
                                    {p.folded_forward.data(), t, pt, false},
                                    {in, w, 4 * w * w * f, false}, middle, t, 4 * pt * f, 2);
    real_gemm_strided_batched<Real>(blas, static_cast<int>(2 * t * f), t, w,
                                    {middle, static_cast<int>(2 * t * f), 2 * pt * f, false},
                                    {p.folded_forward.data(), t, pt, true}, window,
                                    static_cast<int>(2 * t * f), 2 * t * t * f, 4);
    launch_weight_folded<Real>(window, p.folded_weights.data(), t, p.parities, count, stream);
    real_gemm_strided_batched<Real>(blas, w, static_cast<int>(4 * t * f), t,
                                    {p.folded_inverse.data(), w, pt, false},
                                    {window, t, 4 * t * t * f, false}, middle, w, 4 * pt * f, 2);
    real_gemm_strided_batched<Real>(blas, static_cast<int>(2 * w * f), w, t,
                                    {middle, static_cast<int>(2 * w * f), 2 * pt * f, false},
                                    {p.folded_inverse.data(), w, pt, true}, out,
                                    static_cast<int>(2 * w * f), 2 * w * w * f, 4, summed);
    summed = true;
  }
  launch_unfold_sum<Real>(fields, s.keep, out, shared ? share_.data() : nullptr, then_stop, grid_,
                          count, stream);
}

template class TrainStage<float>;
template class TrainStage<double>;

}  // namespace psfsim::cuda

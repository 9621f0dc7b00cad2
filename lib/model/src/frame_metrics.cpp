#include "psfsim/frame_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "psfsim/metric_math.hpp"

namespace psfsim {
namespace {

// out[a] = sum_b table[a * stride + b] y^b: the row's polynomial in x.
void collapse(const std::vector<double>& table, int stride, double y, double* out) {
  for (int a = 0; a < stride; ++a) {
    double v = 0.0;
    for (int b = stride - 1; b >= 0; --b) v = v * y + table[a * stride + b];
    out[a] = v;
  }
}

double horner(const double* c, int stride, double x) {
  double v = 0.0;
  for (int a = stride - 1; a >= 0; --a) v = v * x + c[a];
  return v;
}

// The value on the optical axis: the pixel there, or bilinear between the four around it
// when the axis falls between pixel centres (an even detector oversampling).
template <typename T>
double axis_value(const T* frame, int edge, double axis) {
  const int i0 = static_cast<int>(std::floor(axis));
  const double f = axis - i0;
  const auto at = [&](int r, int c) {
    return static_cast<double>(frame[static_cast<std::size_t>(r) * edge + c]);
  };
  if (f == 0.0 || i0 + 1 >= edge) return at(i0, i0);
  return (1 - f) * ((1 - f) * at(i0, i0) + f * at(i0, i0 + 1)) +
         f * ((1 - f) * at(i0 + 1, i0) + f * at(i0 + 1, i0 + 1));
}

}  // namespace

WavefrontSums wavefront_sums(const SampledPupil& facts, const AberrationPolynomial& phase) {
  const int n = facts.samples;
  const int stride = phase.stride();
  const bool rho = phase.uses_rho();
  const double* amplitude = facts.amplitude_of(phase.batch_index);
  const double* opd = facts.opd_of(phase.batch_index);
  std::vector<double> plain(stride), with_rho(stride);
  // W less its piston term: the RMS is piston-free, and a large piston would cancel in
  // sum A W^2 / sum A - mean^2.
  const double piston = phase.plain[0];
  WavefrontSums s;
  for (int r = 0; r < n; ++r) {
    const ApertureSpan& span = facts.spans[r];
    if (span.hi <= span.lo) continue;
    const double y = facts.coordinates[r];
    collapse(phase.plain, stride, y, plain.data());
    if (rho) collapse(phase.with_rho, stride, y, with_rho.data());
    const std::size_t row = static_cast<std::size_t>(r) * n;
    for (int c = span.lo; c < span.hi; ++c) {
      if (amplitude == nullptr && c >= span.obscured_lo && c < span.obscured_hi) continue;
      const double a = amplitude != nullptr ? amplitude[row + c] : 1.0;
      if (a == 0.0) continue;
      const double x = facts.coordinates[c];
      double w = horner(plain.data(), stride, x) - piston;
      if (rho) w += pupil::radius(x, y) * horner(with_rho.data(), stride, x);
      if (opd != nullptr) w += opd[row + c];
      s.a += a;
      s.aw += a * w;
      s.aw2 += a * w * w;
    }
  }
  return s;
}

template <typename T>
void frame_metrics(const MetricsPlan& plan, const SampledPupil& facts,
                   const AberrationPolynomial& phase, const T* frame, int edge, double to_raw,
                   double* row) {
  const double axis = plan.axis;
  double total = 0.0, sx = 0.0, sy = 0.0;
  double peak = -std::numeric_limits<double>::infinity();
  int peak_r = 0, peak_c = 0;
  for (int r = 0; r < edge; ++r) {
    const T* line = frame + static_cast<std::size_t>(r) * edge;
    const double dy = r - axis;
    for (int c = 0; c < edge; ++c) {
      const double v = static_cast<double>(line[c]);
      const double dx = c - axis;
      total += v;
      sx += v * dx;
      sy += v * dy;
      if (v > peak) {
        peak = v;
        peak_r = r;
        peak_c = c;
      }
    }
  }

  const double peak_reference = facts.aperture_sum * facts.aperture_sum * plan.peak_factor;
  for (const MetricColumn& column : plan.columns) {
    double* out = row + column.offset;
    switch (column.metric) {
      case Metric::strehl: *out = peak * to_raw / peak_reference; break;
      case Metric::strehl_centre:
        *out = axis_value(frame, edge, axis) * to_raw / peak_reference;
        break;
      case Metric::centroid:
        *out = (column.name == "centroid_x" ? sx : sy) / total * plan.pixel_scale;
        break;
      case Metric::fwhm: {
        const int all_bins = plan.fwhm_bins;
        std::vector<double> sums(all_bins), distances(all_bins), counts(all_bins);
        double half_width = 0.0;
        for (int attempt = 0; attempt < metric::fwhm_attempts; ++attempt) {
          const bool near = attempt + 1 < metric::fwhm_attempts;
          const int box = near ? metric::fwhm_box(attempt) : edge;
          const int bins = near ? std::min(box, all_bins) : all_bins;
          std::fill(sums.begin(), sums.end(), 0.0);
          std::fill(distances.begin(), distances.end(), 0.0);
          std::fill(counts.begin(), counts.end(), 0.0);
          const int r0 = near ? std::max(0, peak_r - box) : 0;
          const int r1 = near ? std::min(edge, peak_r + box + 1) : edge;
          const int c0 = near ? std::max(0, peak_c - box) : 0;
          const int c1 = near ? std::min(edge, peak_c + box + 1) : edge;
          for (int r = r0; r < r1; ++r)
            for (int c = c0; c < c1; ++c) {
              const double d = std::hypot(double(c - peak_c), double(r - peak_r));
              const int b = metric::profile_bin(d);
              if (b >= bins) continue;
              sums[b] += static_cast<double>(frame[static_cast<std::size_t>(r) * edge + c]);
              distances[b] += d;
              counts[b] += 1.0;
            }
          half_width = metric::half_width(sums.data(), distances.data(), counts.data(), bins, peak);
          const bool whole_frame_seen = !near || (r0 == 0 && c0 == 0 && r1 == edge && c1 == edge);
          if (!std::isnan(half_width) || whole_frame_seen) break;
        }
        *out = 2.0 * half_width * plan.pixel_scale;
        break;
      }
      case Metric::ee: break;  // the backend's, from the pupil's field (encircled_energy_weights)
      case Metric::rms_wavefront: {
        const WavefrontSums s = wavefront_sums(facts, phase);
        *out = metric::weighted_rms(s.a, s.aw, s.aw2);
        break;
      }
      case Metric::mtf: break;  // the FFT backend's, from the whole plane
      case Metric::contrast:
      case Metric::throughput: break;  // the run's, from the frames (train_metrics.hpp)
    }
  }
}

template void frame_metrics<float>(const MetricsPlan&, const SampledPupil&,
                                   const AberrationPolynomial&, const float*, int, double, double*);
template void frame_metrics<double>(const MetricsPlan&, const SampledPupil&,
                                    const AberrationPolynomial&, const double*, int, double,
                                    double*);

}  // namespace psfsim

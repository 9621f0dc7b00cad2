#include "psfsim/detector.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"
#include "psfsim/option_table.hpp"

namespace psfsim {

double largest_count(const OpticsSpec& o, double photon_share) {
  const double mean = o.photons.value_or(0.0) * photon_share + o.background;
  return mean + 10.0 * std::sqrt(mean) + 10.0 + max_normal_draw * o.read_noise;
}

void check_count_range(const OpticsSpec& o, Precision precision, double photon_share) {
  const double most = precision == Precision::single ? std::numeric_limits<float>::max()
                                                     : std::numeric_limits<double>::max();
  const double count = largest_count(o, photon_share);
  if (count <= most) return;
  const double light = o.photons.value_or(0.0) * photon_share;
  const double read = max_normal_draw * o.read_noise;
  std::string what;
  if (!(light < o.background || light < read))
    what = flag(Option::photons) + " " + format_number(*o.photons) + ": a pixel may count up to " +
           format_two_digits(light) + " photo-electrons";
  else if (!(o.background < read))
    what = flag(Option::background) + " " + format_number(o.background) +
           ": a pixel may count up to " + format_two_digits(o.background) + " photo-electrons";
  else
    what = flag(Option::read_noise) + " " + format_number(o.read_noise) +
           ": a pixel's read noise may reach " + format_two_digits(read) + " electrons (" +
           format_two_digits(max_normal_draw) + " sigma)";
  throw InputError(what + ", more than " + std::string(to_string(precision)) +
                   " precision holds (" + format_two_digits(most) + ")" +
                   (precision == Precision::single
                        ? "; " + flag(Option::precision) + " double holds up to " +
                              format_two_digits(std::numeric_limits<double>::max())
                        : ""));
}

template <typename T>
void bin_oversampled(const T* sub, int K, int S, T* out) {
  const auto k = static_cast<std::size_t>(K), s = static_cast<std::size_t>(S);
  if (S == 1) {  // 0.0 + x would turn a -0.0 into +0.0
    std::copy(sub, sub + k * k, out);
    return;
  }
  const std::size_t sub_edge = k * s;
  for (std::size_t r = 0; r < k; ++r) {
    for (std::size_t c = 0; c < k; ++c) {
      double sum = 0.0;
      for (std::size_t i = 0; i < s; ++i) {
        const T* row = sub + (r * s + i) * sub_edge + c * s;
        for (std::size_t j = 0; j < s; ++j) sum += row[j];
      }
      out[r * k + c] = static_cast<T>(sum);
    }
  }
}

int jitter_radius(double sigma_pixels) {
  if (!(sigma_pixels >= 0.0) || !std::isfinite(sigma_pixels))
    throw std::invalid_argument("jitter: sigma must be finite and >= 0");
  // Far beyond any image: the cap only keeps the int from overflowing.
  return static_cast<int>(std::min(std::ceil(4.0 * sigma_pixels), 1e9));
}

std::vector<double> jitter_kernel(double sigma_pixels, int max_offset) {
  const int radius = jitter_radius(sigma_pixels);
  const int kept = std::min(radius, std::max(max_offset, 0));
  std::vector<double> w(static_cast<std::size_t>(kept) + 1, 0.0);
  double total = 0.0;
  for (int n = radius; n >= 1; --n) {  // smallest first, for an accurate sum
    const double x = n / sigma_pixels;
    const double g = std::exp(-0.5 * x * x);
    total += 2.0 * g;
    if (n <= kept) w[static_cast<std::size_t>(n)] = g;
  }
  total += 1.0;
  w[0] = 1.0;
  for (double& v : w) v /= total;
  return w;
}

template <typename T>
void apply_jitter(T* image, int edge, double sigma_pixels, T* scratch) {
  const std::vector<double> w = jitter_kernel(sigma_pixels, edge - 1);
  if (sigma_pixels == 0.0) return;
  const auto e = static_cast<std::size_t>(edge);
  const std::size_t reach = w.size() - 1;

  // Rows, image -> scratch.
  for (std::size_t r = 0; r < e; ++r) {
    const T* in = image + r * e;
    T* out = scratch + r * e;
    for (std::size_t c = 0; c < e; ++c) {
      double sum = w[0] * in[c];
      const std::size_t left = std::min(reach, c), right = std::min(reach, e - 1 - c);
      for (std::size_t n = 1; n <= left; ++n) sum += w[n] * in[c - n];
      for (std::size_t n = 1; n <= right; ++n) sum += w[n] * in[c + n];
      out[c] = static_cast<T>(sum);
    }
  }
  // Columns, scratch -> image, a whole row at a time so that memory is read in order.
  std::vector<double> acc(e);
  for (std::size_t r = 0; r < e; ++r) {
    const T* centre = scratch + r * e;
    for (std::size_t c = 0; c < e; ++c) acc[c] = w[0] * centre[c];
    const std::size_t up = std::min(reach, r), down = std::min(reach, e - 1 - r);
    for (std::size_t n = 1; n <= std::max(up, down); ++n) {
      const T* above = n <= up ? scratch + (r - n) * e : nullptr;
      const T* below = n <= down ? scratch + (r + n) * e : nullptr;
      if (above)
        for (std::size_t c = 0; c < e; ++c) acc[c] += w[n] * above[c];
      if (below)
        for (std::size_t c = 0; c < e; ++c) acc[c] += w[n] * below[c];
    }
    for (std::size_t c = 0; c < e; ++c) image[r * e + c] = static_cast<T>(acc[c]);
  }
}

template <typename T>
void apply_photon_noise(T* frame, std::size_t pixels, std::uint64_t frame_index,
                        const NoiseModel& m) {
  for (std::size_t i = 0; i < pixels; ++i)
    frame[i] = static_cast<T>(noisy_pixel(static_cast<double>(frame[i]), frame_index, i, m));
}

template void bin_oversampled<float>(const float*, int, int, float*);
template void bin_oversampled<double>(const double*, int, int, double*);
template void apply_jitter<float>(float*, int, double, float*);
template void apply_jitter<double>(double*, int, double, double*);
template void apply_photon_noise<float>(float*, std::size_t, std::uint64_t, const NoiseModel&);
template void apply_photon_noise<double>(double*, std::size_t, std::uint64_t, const NoiseModel&);

}  // namespace psfsim

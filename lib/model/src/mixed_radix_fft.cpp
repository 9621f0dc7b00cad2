#include "mixed_radix_fft.hpp"

#include <cmath>
#include <numbers>

namespace psfsim::detail {

MixedRadixFft::MixedRadixFft(int length) : length_(length) {
  for (int rest = length, p = 2; rest > 1;) {
    if (p * p > rest) p = rest;
    if (rest % p == 0) {
      factors_.push_back(p);
      rest /= p;
    } else {
      ++p;
    }
  }
  roots_.resize(static_cast<std::size_t>(length));
  for (int j = 0; j < length; ++j) {
    // The angle of the nearer of j and j - n, so that every root is as exact as the first half's.
    const int nearest = 2 * j <= length ? j : j - length;
    const double angle = -2.0 * std::numbers::pi * nearest / length;
    roots_[static_cast<std::size_t>(j)] = {std::cos(angle), std::sin(angle)};
  }
}

void MixedRadixFft::forward(const std::complex<double>* in, std::complex<double>* out) const {
  transform(in, 1, out, length_, 0);
}

// The n-point DFT of in[0], in[stride], ... into out[0, n): the p sub-transforms of every
// p-th input (p the level's radix) into out's p blocks of n/p, then each output k + q n/p
// from the p values at k, twiddled, in place. Twiddle indices stay below the length
// (step r k < step p m = length), so no index is reduced in the loops.
void MixedRadixFft::transform(const std::complex<double>* in, int stride, std::complex<double>* out,
                              int n, std::size_t level) const {
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  const int p = factors_[level];
  const int m = n / p;
  for (int r = 0; r < p; ++r) transform(in + r * stride, stride * p, out + r * m, m, level + 1);
  const std::size_t step = static_cast<std::size_t>(length_ / n);  // exp(-2 pi i / n)
  if (p == 2) {
    for (int k = 0; k < m; ++k) {
      const std::complex<double> a = out[k];
      const std::complex<double> b = out[m + k] * roots_[step * k];
      out[k] = a + b;
      out[m + k] = a - b;
    }
    return;
  }
  // exp(-2 pi i e / p) for e in [0, p): the p-point DFT's own roots.
  std::vector<std::complex<double>> radix(static_cast<std::size_t>(p)), twiddled(radix.size());
  for (int e = 0; e < p; ++e) radix[e] = roots_[static_cast<std::size_t>(length_ / p) * e];
  for (int k = 0; k < m; ++k) {
    for (int r = 0; r < p; ++r) twiddled[r] = out[r * m + k] * roots_[step * r * k];
    for (int q = 0; q < p; ++q) {
      std::complex<double> sum = twiddled[0];
      int e = 0;
      for (int r = 1; r < p; ++r) {
        e += q;
        if (e >= p) e -= p;
        sum += twiddled[r] * radix[e];
      }
      out[q * m + k] = sum;
    }
  }
}

}  // namespace psfsim::detail

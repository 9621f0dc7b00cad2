#pragma once
// A plain complex DFT of any length in double for the model's plan-time tables
// (encircled_energy_weights.cpp): decimation in time over the length's prime factors, each a
// direct DFT of its radix, so O(n * sum of the factors). lib/ links no FFT library; the
// backends' per-frame transforms are FFTW's and cuFFT's.
#include <complex>
#include <vector>

namespace psfsim::detail {

class MixedRadixFft {
 public:
  explicit MixedRadixFft(int length);

  // out[k] = sum_j in[j] exp(-2 pi i j k / n); `in` and `out` must not overlap.
  void forward(const std::complex<double>* in, std::complex<double>* out) const;
  [[nodiscard]] int length() const noexcept { return length_; }

 private:
  void transform(const std::complex<double>* in, int stride, std::complex<double>* out, int n,
                 std::size_t level) const;

  int length_;
  std::vector<int> factors_;                 // primes, ascending, product length_
  std::vector<std::complex<double>> roots_;  // exp(-2 pi i j / n), j in [0, n)
};

}  // namespace psfsim::detail

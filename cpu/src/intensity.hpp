#pragma once
// |F|^2 of the K x K output window, scaled, with the 'sum' normalization applied per frame.
#include <complex>
#include <cstddef>

#include "psfsim/enums.hpp"

namespace psfsim::cpu {

// Sum of a row in double, with independent partial sums so that the loop vectorizes
// without reassociation flags.
template <typename T>
double row_sum(const T* __restrict v, std::size_t n) {
  constexpr std::size_t lanes = 8;
  double partial[lanes] = {};
  std::size_t j = 0;
  for (; j + lanes <= n; j += lanes)
    for (std::size_t l = 0; l < lanes; ++l) partial[l] += v[j + l];
  double total = 0.0;
  for (; j < n; ++j) total += v[j];
  for (double p : partial) total += p;
  return total;
}

// `field` holds the K output rows of the focal-plane field, each M long (row stride M); the
// output columns are [first_column, first_column + K). `peak_scale` is applied for
// Normalization::peak. Returns the factor applied: out = |F|^2 * factor.
template <typename T>
double write_intensity(const std::complex<T>* field, int padded, int first_column, int frame,
                       T* out, Normalization normalization, double peak_scale) {
  const std::size_t k = static_cast<std::size_t>(frame);
  const T scale = normalization == Normalization::peak ? static_cast<T>(peak_scale) : T(1);
  double total = 0.0;
  for (std::size_t i = 0; i < k; ++i) {
    const T* __restrict in =
        reinterpret_cast<const T*>(field + i * static_cast<std::size_t>(padded) + first_column);
    T* __restrict row = out + i * k;
    for (std::size_t j = 0; j < k; ++j) {
      const T re = in[2 * j];
      const T im = in[2 * j + 1];
      row[j] = (re * re + im * im) * scale;
    }
    if (normalization == Normalization::sum) total += row_sum(row, k);
  }
  if (normalization == Normalization::sum && total > 0.0) {
    const T inv = static_cast<T>(1.0 / total);
    for (std::size_t i = 0; i < k * k; ++i) out[i] *= inv;
    return static_cast<double>(inv);
  }
  return static_cast<double>(scale);
}

}  // namespace psfsim::cpu

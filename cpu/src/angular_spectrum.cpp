#include "angular_spectrum.hpp"

#include <algorithm>
#include <mutex>

namespace psfsim::cpu {

template <typename T>
AngularSpectrum<T>::AngularSpectrum(const AngularSpectrumGrid& grid, unsigned fftw_flags)
    : grid_(grid) {
  check_angular_spectrum(grid_);
  if (grid_.distance_m == 0.0) return;  // the identity needs no transform
  const int m = grid_.padded;
  offset_ = (m - grid_.samples) / 2;
  const std::size_t area = static_cast<std::size_t>(m) * m;
  work_ = FftwArray<std::complex<T>>(area);
  const std::vector<std::complex<double>> h =
      angular_spectrum_transfer(grid_, 1.0 / static_cast<double>(area));
  conjugate_transfer_.resize(area);
  for (std::size_t i = 0; i < area; ++i)
    conjugate_transfer_[i] =
        std::complex<T>(static_cast<T>(h[i].real()), -static_cast<T>(h[i].imag()));
  const fftw_iodim dims[2] = {{m, m, m}, {m, 1, 1}};
  std::lock_guard lock(fftw_planner_mutex());
  plan_ = FftwPlan<T>(
      FftwApi<T>::plan_guru(2, dims, 0, nullptr, work_.data(), work_.data(), fftw_flags));
}

template <typename T>
void AngularSpectrum<T>::propagate(const std::complex<T>* in, std::complex<T>* out) {
  const int n = grid_.samples, m = grid_.padded;
  const std::size_t field = static_cast<std::size_t>(n) * n;
  if (grid_.distance_m == 0.0) {
    if (in != out) std::copy(in, in + field, out);
    return;
  }
  std::complex<T>* w = work_.data();
  std::fill(w, w + static_cast<std::size_t>(m) * m, std::complex<T>{});
  for (int r = 0; r < n; ++r)
    std::copy(in + static_cast<std::size_t>(r) * n, in + static_cast<std::size_t>(r + 1) * n,
              w + static_cast<std::size_t>(offset_ + r) * m + offset_);
  plan_.execute(w, w);
  // conj(FFT(E) H) / M^2 = conj(FFT(E)) conj(H) / M^2.
  const std::size_t area = static_cast<std::size_t>(m) * m;
  for (std::size_t i = 0; i < area; ++i) w[i] = std::conj(w[i]) * conjugate_transfer_[i];
  plan_.execute(w, w);
  for (int r = 0; r < n; ++r) {
    const std::complex<T>* row = w + static_cast<std::size_t>(offset_ + r) * m + offset_;
    std::complex<T>* target = out + static_cast<std::size_t>(r) * n;
    for (int c = 0; c < n; ++c) target[c] = std::conj(row[c]);
  }
}

template class AngularSpectrum<float>;
template class AngularSpectrum<double>;

}  // namespace psfsim::cpu

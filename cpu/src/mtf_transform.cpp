#include "mtf_transform.hpp"

#include <cmath>

#include "psfsim/metric_math.hpp"

namespace psfsim::cpu {

template <typename T>
MtfTransform<T>::MtfTransform(int padded, unsigned flags) : padded_(padded) {
  FftwArray<std::complex<T>> scratch(static_cast<std::size_t>(padded) * padded);
  const fftw_iodim dims[2] = {{padded, padded, padded}, {padded, 1, 1}};
  plan_ = FftwPlan<T>(
      FftwApi<T>::plan_guru(2, dims, 0, nullptr, scratch.data(), scratch.data(), flags));
}

template <typename T>
void MtfTransform<T>::evaluate(const std::complex<T>* field, std::complex<T>* otf,
                               const MetricsPlan& plan, double* out) const {
  const std::size_t count = static_cast<std::size_t>(padded_) * padded_;
  for (std::size_t i = 0; i < count; ++i) otf[i] = std::complex<T>(std::norm(field[i]), T(0));
  plan_.execute(otf, otf);
  const int m = padded_;
  const auto modulus = [otf, m](int ky, int kx) {
    return static_cast<double>(std::abs(otf[metric::wrapped_index(ky, kx, m)]));
  };
  for (std::size_t f = 0; f < plan.mtf_radii.size(); ++f)
    out[f] = metric::radial_mtf(modulus, plan.mtf_radii[f]);
}

template class MtfTransform<float>;
template class MtfTransform<double>;

}  // namespace psfsim::cpu

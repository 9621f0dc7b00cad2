#include "fftw_api.hpp"

#include <cstring>
#include <new>

namespace psfsim::cpu {

std::mutex& fftw_planner_mutex() {
  static std::mutex m;
  return m;
}

template <typename T>
FftwArray<T>::FftwArray(std::size_t count)
    : data_(static_cast<T*>(fftw_malloc(count * sizeof(T)))), size_(count) {
  if (count > 0 && !data_) throw std::bad_alloc();
  std::memset(static_cast<void*>(data_.get()), 0, count * sizeof(T));
}

template class FftwArray<float>;
template class FftwArray<double>;
template class FftwArray<std::complex<float>>;
template class FftwArray<std::complex<double>>;

}  // namespace psfsim::cpu

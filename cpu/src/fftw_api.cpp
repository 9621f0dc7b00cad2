#include "fftw_api.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstring>
#include <new>

namespace psfsim::cpu {
namespace {

// From this size an array is mapped (FftwArray says why), and aligned to a huge page.
constexpr std::size_t mapped_bytes = std::size_t{4} << 20;
constexpr std::size_t huge_page = std::size_t{2} << 20;

std::size_t mapping_bytes(std::size_t bytes) {
  return (bytes + huge_page - 1) / huge_page * huge_page;
}

// `bytes` rounded up to whole huge pages, at an address that is a multiple of one: the
// mapping is made one huge page larger and its ends given back.
void* map_zeroed(std::size_t bytes) {
  const std::size_t length = mapping_bytes(bytes);
  void* p = ::mmap(nullptr, length + huge_page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(p);
  const std::uintptr_t aligned = (start + huge_page - 1) / huge_page * huge_page;
  if (aligned > start) ::munmap(p, aligned - start);
  const std::uintptr_t end = start + length + huge_page;
  if (end > aligned + length)
    ::munmap(reinterpret_cast<void*>(aligned + length), end - aligned - length);
  void* out = reinterpret_cast<void*>(aligned);
  (void)::madvise(out, length, MADV_HUGEPAGE);  // a hint: where refused, small pages serve
  return out;
}

}  // namespace

std::mutex& fftw_planner_mutex() {
  static std::mutex m;
  return m;
}

template <typename T>
FftwArray<T>::FftwArray(std::size_t count) : size_(count) {
  const std::size_t bytes = count * sizeof(T);
  if (bytes >= mapped_bytes) {
    data_ = static_cast<T*>(map_zeroed(bytes));
    mapped_ = true;
    return;
  }
  data_ = static_cast<T*>(fftw_malloc(bytes));
  if (count > 0 && data_ == nullptr) throw std::bad_alloc();
  std::memset(static_cast<void*>(data_), 0, bytes);
}

template <typename T>
FftwArray<T>::~FftwArray() {
  if (data_ == nullptr) return;
  if (mapped_) ::munmap(data_, mapping_bytes(size_ * sizeof(T)));
  else fftw_free(data_);
}

template class FftwArray<float>;
template class FftwArray<double>;
template class FftwArray<std::complex<float>>;
template class FftwArray<std::complex<double>>;

}  // namespace psfsim::cpu

#pragma once
// One spelling of the FFTW calls psfsim uses for float (fftwf_) and double (fftw_).
#include <fftw3.h>

#include <complex>
#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>

namespace psfsim::cpu {

// The FFTW planner is not thread-safe; execution of a finished plan is.
std::mutex& fftw_planner_mutex();

template <typename T>
struct FftwApi;

template <>
struct FftwApi<float> {
  using plan_t = fftwf_plan;
  using complex_t = fftwf_complex;
  static plan_t plan_guru(int rank, const fftw_iodim* dims, int howmany_rank,
                          const fftw_iodim* howmany, std::complex<float>* in,
                          std::complex<float>* out, unsigned flags) {
    return fftwf_plan_guru_dft(rank, dims, howmany_rank, howmany, reinterpret_cast<complex_t*>(in),
                               reinterpret_cast<complex_t*>(out), FFTW_FORWARD, flags);
  }
  static void execute(plan_t p, std::complex<float>* in, std::complex<float>* out) {
    fftwf_execute_dft(p, reinterpret_cast<complex_t*>(in), reinterpret_cast<complex_t*>(out));
  }
  static void destroy(plan_t p) { fftwf_destroy_plan(p); }
  static void plan_with_nthreads(int n) { fftwf_plan_with_nthreads(n); }
};

template <>
struct FftwApi<double> {
  using plan_t = fftw_plan;
  using complex_t = fftw_complex;
  static plan_t plan_guru(int rank, const fftw_iodim* dims, int howmany_rank,
                          const fftw_iodim* howmany, std::complex<double>* in,
                          std::complex<double>* out, unsigned flags) {
    return fftw_plan_guru_dft(rank, dims, howmany_rank, howmany, reinterpret_cast<complex_t*>(in),
                              reinterpret_cast<complex_t*>(out), FFTW_FORWARD, flags);
  }
  static void execute(plan_t p, std::complex<double>* in, std::complex<double>* out) {
    fftw_execute_dft(p, reinterpret_cast<complex_t*>(in), reinterpret_cast<complex_t*>(out));
  }
  static void destroy(plan_t p) { fftw_destroy_plan(p); }
  static void plan_with_nthreads(int n) { fftw_plan_with_nthreads(n); }
};

// FFTW-aligned array of T, zero-initialised. A large one is mapped from the kernel rather
// than allocated: its pages are zero already, so no memset faults them all in before their
// first use (each fault costs microseconds on a VM), and it asks for transparent huge pages,
// which cut the faults and the TLB misses of the strided column passes 512-fold.
template <typename T>
class FftwArray {
 public:
  FftwArray() = default;
  explicit FftwArray(std::size_t count);
  FftwArray(FftwArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        mapped_(std::exchange(other.mapped_, false)) {}
  FftwArray& operator=(FftwArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(mapped_, other.mapped_);
    return *this;
  }
  FftwArray(const FftwArray&) = delete;
  FftwArray& operator=(const FftwArray&) = delete;
  ~FftwArray();
  [[nodiscard]] T* data() noexcept { return data_; }
  [[nodiscard]] const T* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
};

// One FFTW plan; non-copyable, destroyed under the planner lock.
template <typename T>
class FftwPlan {
 public:
  using Api = FftwApi<T>;
  FftwPlan() = default;
  explicit FftwPlan(typename Api::plan_t plan) noexcept : plan_(plan) {}
  FftwPlan(FftwPlan&& other) noexcept : plan_(other.plan_) { other.plan_ = nullptr; }
  FftwPlan& operator=(FftwPlan&& other) noexcept {
    std::swap(plan_, other.plan_);
    return *this;
  }
  FftwPlan(const FftwPlan&) = delete;
  FftwPlan& operator=(const FftwPlan&) = delete;
  ~FftwPlan() {
    if (plan_ != nullptr) {
      std::lock_guard lock(fftw_planner_mutex());
      Api::destroy(plan_);
    }
  }
  void execute(std::complex<T>* in, std::complex<T>* out) const { Api::execute(plan_, in, out); }

 private:
  typename Api::plan_t plan_ = nullptr;
};

}  // namespace psfsim::cpu

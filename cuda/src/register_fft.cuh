#pragma once
// Power-of-two transforms of one column per group of threads, in registers and one block's
// shared memory, for the kernels that transform the columns of a padded field themselves
// (column_pass_kernel, periodic_pass_kernel): cuFFT would read and write every row, the zero
// padding's too, in each of its passes.
#include <cuda_runtime_api.h>

#include <utility>

#include "device_complex.hpp"

namespace psfsim::cuda {
namespace register_fft {

// exp(-2 pi i j / 32) for j in [0, 16): every root a transform in registers (at most 32
// points) needs, with the symmetric values exact to each other.
static __constant__ double2 roots_double[16] = {
    {1, 0},
    {0.98078528040323043, -0.19509032201612833},
    {0.92387953251128674, -0.38268343236508984},
    {0.83146961230254524, -0.55557023301960229},
    {0.70710678118654757, -0.70710678118654757},
    {0.55557023301960229, -0.83146961230254524},
    {0.38268343236508984, -0.92387953251128674},
    {0.19509032201612833, -0.98078528040323043},
    {0, -1},
    {-0.19509032201612833, -0.98078528040323043},
    {-0.38268343236508984, -0.92387953251128674},
    {-0.55557023301960229, -0.83146961230254524},
    {-0.70710678118654757, -0.70710678118654757},
    {-0.83146961230254524, -0.55557023301960229},
    {-0.92387953251128674, -0.38268343236508984},
    {-0.98078528040323043, -0.19509032201612833},
};
static __constant__ float2 roots_float[16] = {
    {1.0f, 0.0f},
    {0.98078528040323043f, -0.19509032201612833f},
    {0.92387953251128674f, -0.38268343236508984f},
    {0.83146961230254524f, -0.55557023301960229f},
    {0.70710678118654757f, -0.70710678118654757f},
    {0.55557023301960229f, -0.83146961230254524f},
    {0.38268343236508984f, -0.92387953251128674f},
    {0.19509032201612833f, -0.98078528040323043f},
    {0.0f, -1.0f},
    {-0.19509032201612833f, -0.98078528040323043f},
    {-0.38268343236508984f, -0.92387953251128674f},
    {-0.55557023301960229f, -0.83146961230254524f},
    {-0.70710678118654757f, -0.70710678118654757f},
    {-0.83146961230254524f, -0.55557023301960229f},
    {-0.92387953251128674f, -0.38268343236508984f},
    {-0.98078528040323043f, -0.19509032201612833f},
};

template <typename Real>
__device__ __forceinline__ DeviceComplex<Real> root32(int j);
template <>
__device__ __forceinline__ float2 root32<float>(int j) {
  return roots_float[j];
}
template <>
__device__ __forceinline__ double2 root32<double>(int j) {
  return roots_double[j];
}

template <typename C>
__device__ __forceinline__ C times(C a, C b) {
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}

__host__ __device__ constexpr int log2_of(int n) { return n <= 1 ? 0 : 1 + log2_of(n / 2); }

__host__ __device__ constexpr int bit_reverse(int i, int bits) {
  int r = 0;
  for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
  return r;
}

// f(Index<i>{}) for i in [0, count): every index a compile-time constant (read as
// decltype(i)::value), so that arrays indexed by it stay in registers.
template <int I>
struct Index {
  static constexpr int value = I;
};
template <typename F, int... I>
__device__ __forceinline__ void unrolled(F&& f, std::integer_sequence<int, I...>) {
  (f(Index<I>{}), ...);
}
template <int Count, typename F>
__device__ __forceinline__ void unrolled(F&& f) {
  unrolled(f, std::make_integer_sequence<int, Count>{});
}

// An R-point forward transform of v in place, radix 2 in time.
template <typename Real, int R>
__device__ __forceinline__ void register_transform(DeviceComplex<Real> (&v)[R]) {
  constexpr int bits = log2_of(R);
  unrolled<R>([&](auto index) {
    constexpr int i = decltype(index)::value;
    constexpr int j = bit_reverse(i, bits);
    if constexpr (j > i) {
      const DeviceComplex<Real> t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  });
  unrolled<bits>([&](auto stage) {
    constexpr int h = 1 << decltype(stage)::value;
    unrolled<R / 2>([&](auto butterfly) {
      constexpr int b = decltype(butterfly)::value;
      constexpr int j = b % h;
      constexpr int i = (b / h) * 2 * h + j;
      const DeviceComplex<Real> a = v[i];
      DeviceComplex<Real> d = v[i + h];
      if constexpr (j != 0) d = times(d, root32<Real>(j * (16 / h)));
      v[i] = {a.x + d.x, a.y + d.y};
      v[i + h] = {a.x - d.x, a.y - d.y};
    });
  });
}

// M = M1 x M2 (M1 >= M2, both at most 32): point n = M2 n1 + n2 of a column, output
// k = k1 + M1 k2. A column's M2 threads each transform M1 points over n1, scale by
// exp(-2 pi i n2 k1 / M) and trade through shared memory; each then transforms the M2 points
// over n2 of its k1 (M1 / M2 of them).
template <int M>
struct Factors {
  static constexpr int m2 = 1 << (log2_of(M) / 2);
  static constexpr int m1 = M / m2;
};

// Adjacent columns a block takes: 128 bytes of each row, one memory transaction.
template <typename Real>
inline constexpr int block_columns = 128 / static_cast<int>(sizeof(DeviceComplex<Real>));

template <typename Real, int M>
inline constexpr int block_threads = Factors<M>::m2* block_columns<Real>;

template <typename Real, int M>
inline constexpr int shared_bytes =
    M* block_columns<Real>* static_cast<int>(sizeof(DeviceComplex<Real>));

// The output point that slot s (round * M2 + k2) of thread t holds in column_transform.
template <int M>
__host__ __device__ constexpr int output_point(int t, int s) {
  return t + (s / Factors<M>::m2) * Factors<M>::m2 + Factors<M>::m1 * (s % Factors<M>::m2);
}

// Where a thread of a column kernel stands: a block takes block_columns adjacent columns of
// one frame, M2 threads a column; `trade` is the block's dynamic shared memory.
template <typename Real, int M>
struct ColumnPlace {
  static constexpr int width = block_columns<Real>;
  static constexpr int groups = M / width;
  int c = static_cast<int>(threadIdx.x) % width;  // the block's column
  int t = static_cast<int>(threadIdx.x) / width;  // the thread's place within the column
  long long frame = blockIdx.x / groups;
  int column = static_cast<int>(blockIdx.x % groups) * width + c;
};

template <typename Real>
__device__ __forceinline__ DeviceComplex<Real>* shared_trade() {
  extern __shared__ __align__(16) unsigned char shared[];
  return reinterpret_cast<DeviceComplex<Real>*>(shared);
}

// One column's M-point forward transform by its M2 threads (t in [0, M2), the block's column
// c of block_columns): load(n) gives input point n; store(slot, k, value) takes output point
// k, slot (an Index, slot = round * M2 + k2) numbering a thread's M1 outputs at compile time.
// trade: the block's shared memory (M x block_columns values). With InputInTrade, load reads
// trade, and every thread's loads finish before the first write to it.
template <typename Real, int M, bool InputInTrade = false, typename Load, typename Store>
__device__ __forceinline__ void column_transform(DeviceComplex<Real>* trade,
                                                 const DeviceComplex<Real>* __restrict__ twiddles,
                                                 int t, int c, Load&& load, Store&& store) {
  using Complex = DeviceComplex<Real>;
  constexpr int m1 = Factors<M>::m1;
  constexpr int m2 = Factors<M>::m2;
  constexpr int width = block_columns<Real>;
  Complex v[m1];
  unrolled<m1>([&](auto index) {
    constexpr int n1 = decltype(index)::value;
    v[n1] = load(m2 * n1 + t);
  });
  if constexpr (InputInTrade) __syncthreads();
  register_transform<Real, m1>(v);
  unrolled<m1>([&](auto index) {
    constexpr int k1 = decltype(index)::value;
    trade[(t * m1 + k1) * width + c] = k1 == 0 ? v[0] : times(v[k1], twiddles[t * k1]);
  });
  __syncthreads();
  unrolled<m1 / m2>([&](auto round) {
    const int k1 = t + decltype(round)::value * m2;
    Complex u[m2];
    unrolled<m2>([&](auto index) {
      constexpr int n2 = decltype(index)::value;
      u[n2] = trade[(n2 * m1 + k1) * width + c];
    });
    register_transform<Real, m2>(u);
    unrolled<m2>([&](auto index) {
      constexpr int k2 = decltype(index)::value;
      constexpr int slot = decltype(round)::value * m2 + k2;
      store(Index<slot>{}, output_point<M>(t, slot), u[k2]);
    });
  });
}

}  // namespace register_fft
}  // namespace psfsim::cuda

#include "column_pass_kernel.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "cuda_check.hpp"

namespace psfsim::cuda {
namespace {

// exp(-2 pi i j / 32) for j in [0, 16): every root a transform in registers (at most 32
// points) needs, with the symmetric values exact to each other.
__constant__ double2 roots_double[16] = {
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
__constant__ float2 roots_float[16] = {
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

template <typename Real>
__device__ __forceinline__ void put(DeviceComplex<Real>* out, long long at, DeviceComplex<Real> v) {
  out[at] = v;
}
template <typename Real>
__device__ __forceinline__ void put(Real* out, long long at, DeviceComplex<Real> v) {
  out[at] = v.x * v.x + v.y * v.y;
}

template <typename Real, int M, typename Out>
__global__ void __launch_bounds__(block_threads<Real, M>)
    column_pass_kernel(const DeviceComplex<Real>* __restrict__ rows,
                       const DeviceComplex<Real>* __restrict__ twiddles, ColumnPass pass,
                       Out* __restrict__ out) {
  using Complex = DeviceComplex<Real>;
  constexpr int m1 = Factors<M>::m1;
  constexpr int m2 = Factors<M>::m2;
  constexpr int width = block_columns<Real>;
  constexpr int groups = M / width;
  extern __shared__ __align__(16) unsigned char shared[];
  Complex* trade = reinterpret_cast<Complex*>(shared);  // [n2][k1][column]

  const int c = threadIdx.x % width;
  const int t = threadIdx.x / width;
  const long long frame = blockIdx.x / groups;
  const int column = static_cast<int>(blockIdx.x % groups) * width + c;

  const Complex* in = rows + frame * pass.samples * M + column;
  Complex v[m1];
  unrolled<m1>([&](auto index) {
    constexpr int n1 = decltype(index)::value;
    const int r = m2 * n1 + t - pass.offset;  // the input row of point m2 n1 + t
    v[n1] = r >= 0 && r < pass.samples ? in[static_cast<long long>(r) * M] : Complex{0, 0};
  });
  register_transform<Real, m1>(v);
  unrolled<m1>([&](auto index) {
    constexpr int k1 = decltype(index)::value;
    trade[(t * m1 + k1) * width + c] = k1 == 0 ? v[0] : times(v[k1], twiddles[t * k1]);
  });
  __syncthreads();

  Out* target = out + frame * M * M + column;
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
      put<Real>(target, static_cast<long long>(k1 + m1 * k2) * M, u[k2]);
    });
  });
}

template <typename Real, int M, typename Out>
void launch_for(const DeviceComplex<Real>* rows, const DeviceComplex<Real>* twiddles,
                const ColumnPass& pass, Out* out, cudaStream_t stream) {
  const long long blocks = static_cast<long long>(pass.frames) * (M / block_columns<Real>);
  column_pass_kernel<Real, M, Out>
      <<<static_cast<unsigned>(blocks), block_threads<Real, M>, shared_bytes<Real, M>, stream>>>(
          rows, twiddles, pass, out);
  PSFSIM_CUDA_CHECK_LAUNCH();
}

template <typename Real, int M>
void raise_shared_limit() {
  if constexpr (shared_bytes < Real, M >> 48 * 1024) {
    PSFSIM_CUDA_CHECK(cudaFuncSetAttribute(column_pass_kernel<Real, M, DeviceComplex<Real>>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           shared_bytes<Real, M>));
    PSFSIM_CUDA_CHECK(cudaFuncSetAttribute(column_pass_kernel<Real, M, Real>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           shared_bytes<Real, M>));
  }
}

}  // namespace

bool column_pass_takes(int padded) noexcept {
  return padded >= 32 && padded <= 1024 && (padded & (padded - 1)) == 0;
}

template <typename Real>
void prepare_column_pass(int padded) {
  if (padded == 512) raise_shared_limit<Real, 512>();
  if (padded == 1024) raise_shared_limit<Real, 1024>();
}

template <typename Real, typename Out>
void launch_column_pass(const DeviceComplex<Real>* rows, const DeviceComplex<Real>* twiddles,
                        const ColumnPass& pass, Out* out, cudaStream_t stream) {
  switch (pass.padded) {
    case 32: return launch_for<Real, 32>(rows, twiddles, pass, out, stream);
    case 64: return launch_for<Real, 64>(rows, twiddles, pass, out, stream);
    case 128: return launch_for<Real, 128>(rows, twiddles, pass, out, stream);
    case 256: return launch_for<Real, 256>(rows, twiddles, pass, out, stream);
    case 512: return launch_for<Real, 512>(rows, twiddles, pass, out, stream);
    case 1024: return launch_for<Real, 1024>(rows, twiddles, pass, out, stream);
    default: throw std::logic_error("column pass: M=" + std::to_string(pass.padded));
  }
}

#define PSFSIM_INSTANTIATE(Real)                                                              \
  template void prepare_column_pass<Real>(int);                                               \
  template void launch_column_pass<Real, DeviceComplex<Real>>(                                \
      const DeviceComplex<Real>*, const DeviceComplex<Real>*, const ColumnPass&,              \
      DeviceComplex<Real>*, cudaStream_t);                                                    \
  template void launch_column_pass<Real, Real>(const DeviceComplex<Real>*,                    \
                                               const DeviceComplex<Real>*, const ColumnPass&, \
                                               Real*, cudaStream_t);
PSFSIM_INSTANTIATE(float)
PSFSIM_INSTANTIATE(double)
#undef PSFSIM_INSTANTIATE

}  // namespace psfsim::cuda

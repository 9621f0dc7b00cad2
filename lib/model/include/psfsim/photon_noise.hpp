#pragma once
// The noise of one detector pixel (docs/spec.md §6): Poisson(μ) photo-electrons plus Normal(0, R²)
// read noise, μ = intensity · photons_scale + background. Header-only and PSFSIM_HD, so that
// the CPU loop (detector.hpp) and a CUDA kernel run the same code.
//
// Reproducibility. The random bits come from Philox4x32-10 (Random123) keyed by the 64-bit
// seed; the 128-bit counter is (frame: 64 bits, pixel: 48 bits, block: 16 bits). A pixel's
// value therefore depends only on (seed, frame, pixel, μ, R), never on the order, chunking,
// thread or device that computes it. Block 0 feeds the read noise and blocks 1, 2, ... the
// Poisson draw, so the read noise of a pixel does not depend on μ. Pixel indices must be below
// 2^48 (a frame of 256 Ti pixels); the block number wraps after 65536 blocks, which a
// rejection loop that accepts at least 3 times in 4 never reaches.
//
// The uniforms are bit-identical everywhere (integer arithmetic, then an exact conversion).
// What can differ between platforms is the last bit of log, exp and cos (glibc and CUDA's
// libdevice are within 1-2 ulp of each other) and, where a compiler contracts a*b + c into an
// FMA, of products and sums. Device code forbids contraction (__dmul_rn, __dadd_rn); x86-64
// host code has no FMA unless -mfma or -march enables it. So a Poisson count differs only if a
// uniform falls within a few ulps of a decision threshold (about 1e-15 per pixel), and the
// read noise may differ in the last bits of a double. Seen over 2^20 pixels, μ from 0.03 to
// 1e6, H200 (CUDA 13.0) against glibc x86-64: every count identical; with read noise 1.5% of
// the doubles differ (by at most 7e-13 relative), none once rounded to float.
#include <Random123/philox.h>
#include <math.h>

#include <cstdint>

#if !defined(PSFSIM_HD)
#if defined(__CUDACC__)
#define PSFSIM_HD __host__ __device__
#else
#define PSFSIM_HD
#endif
#endif

namespace psfsim {

struct NoiseModel {
  double photons_scale = 1.0;  // photo-electrons per unit of frame intensity
  double background = 0.0;     // photo-electrons per pixel, added to μ
  double read_noise = 0.0;     // R, RMS electrons
  std::uint64_t seed = 0;
};

namespace photon_noise_detail {

// Correctly rounded product and sum that no compiler may fuse into an FMA.
PSFSIM_HD inline double mul(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
PSFSIM_HD inline double add(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

// Successive uniforms in (0, 1) of one pixel, two per Philox block.
class Uniforms {
 public:
  PSFSIM_HD Uniforms(std::uint64_t seed, std::uint64_t frame, std::uint64_t pixel,
                     std::uint32_t block)
      : block_(block) {
    key_.v[0] = static_cast<std::uint32_t>(seed);
    key_.v[1] = static_cast<std::uint32_t>(seed >> 32);
    ctr_.v[0] = static_cast<std::uint32_t>(pixel);
    ctr_.v[1] = static_cast<std::uint32_t>(pixel >> 32) & 0xffffu;
    ctr_.v[2] = static_cast<std::uint32_t>(frame);
    ctr_.v[3] = static_cast<std::uint32_t>(frame >> 32);
  }

  PSFSIM_HD double next() {
    if (used_ == 2) {
      ctr_.v[1] = (ctr_.v[1] & 0xffffu) | (block_ << 16);
      out_ = r123::Philox4x32()(ctr_, key_);
      block_ = (block_ + 1) & 0xffffu;
      used_ = 0;
    }
    const int i = 2 * used_++;
    // 52 random bits b: (2b + 1) / 2^53 is exact, symmetric and never 0 or 1.
    const std::uint64_t bits =
        ((static_cast<std::uint64_t>(out_.v[i]) << 32) | out_.v[i + 1]) >> 12;
    return static_cast<double>(2 * bits + 1) * 0x1p-53;
  }

 private:
  r123::Philox4x32::key_type key_{};
  r123::Philox4x32::ctr_type ctr_{};
  r123::Philox4x32::ctr_type out_{};
  int used_ = 2;
  std::uint32_t block_;
};

// Box-Muller, the cosine half.
PSFSIM_HD inline double standard_normal(Uniforms& u) {
  const double u1 = u.next();
  const double u2 = u.next();
  return mul(sqrt(-2.0 * log(u1)), cos(mul(6.283185307179586, u2)));
}

// log Γ(x) for x >= 1 by Stirling's series, shifted up to x >= 7 (NumPy's random_loggam).
// Not lgamma: glibc's writes the global signgam, a data race between threads.
PSFSIM_HD inline double log_gamma(double x) {
  if (x == 1.0 || x == 2.0) return 0.0;
  const double a[10] = {8.333333333333333e-02,  -2.777777777777778e-03, 7.936507936507937e-04,
                        -5.952380952380952e-04, 8.417508417508418e-04,  -1.917526917526918e-03,
                        6.410256410256410e-03,  -2.955065359477124e-02, 1.796443723688307e-01,
                        -1.39243221690590e+00};
  const int shift = x < 7.0 ? static_cast<int>(7.0 - x) : 0;
  double x0 = add(x, shift);
  const double inv = 1.0 / x0;
  const double x2 = mul(inv, inv);
  double series = a[9];
  for (int k = 8; k >= 0; --k) series = add(mul(series, x2), a[k]);
  constexpr double half_log_2pi = 0.5 * 1.8378770664093453;
  double g = add(add(add(series / x0, half_log_2pi), mul(add(x0, -0.5), log(x0))), -x0);
  for (int k = 0; k < shift; ++k) {
    x0 = add(x0, -1.0);
    g = add(g, -log(x0));
  }
  return g;
}

// μ < 10: inversion, one uniform against the running CDF.
PSFSIM_HD inline double poisson_by_inversion(double mu, Uniforms& u) {
  const double v = u.next();
  double p = exp(-mu);
  double cdf = p;
  double k = 0.0;
  while (v > cdf) {
    k = add(k, 1.0);
    p = mul(p, mu) / k;
    // Rounding can leave the CDF a few ulps short of a v this close to 1: stop there.
    if (add(cdf, p) == cdf) break;
    cdf = add(cdf, p);
  }
  return k;
}

// μ >= 10: Hörmann's transformed rejection with squeeze (PTRS), W. Hörmann, "The transformed
// rejection method for generating Poisson random variables", Insurance: Mathematics and
// Economics 12 (1993) 39-45; the constants are the paper's, the code follows NumPy's.
PSFSIM_HD inline double poisson_ptrs(double mu, Uniforms& u) {
  const double log_mu = log(mu);
  const double b = add(0.931, mul(2.53, sqrt(mu)));
  const double a = add(-0.059, mul(0.02483, b));
  const double log_inv_alpha = log(add(1.1239, 1.1328 / add(b, -3.4)));
  const double v_r = add(0.9277, -3.6224 / add(b, -2.0));
  while (true) {
    const double us_u = add(u.next(), -0.5);
    const double v = u.next();
    const double us = add(0.5, -fabs(us_u));
    const double k = floor(add(add(mul(add(2.0 * a / us, b), us_u), mu), 0.43));
    if (us >= 0.07 && v <= v_r) return k;
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    const double lhs = add(add(log(v), log_inv_alpha), -log(add(a / mul(us, us), b)));
    const double rhs = add(add(-mu, mul(k, log_mu)), -log_gamma(add(k, 1.0)));
    if (lhs <= rhs) return k;
  }
}

PSFSIM_HD inline double poisson(double mu, Uniforms& u) {
  if (!(mu > 0.0)) return mu == mu ? 0.0 : mu;  // NaN passes on, for the finiteness check
  if (!(mu < HUGE_VAL)) return mu;
  return mu < 10.0 ? poisson_by_inversion(mu, u) : poisson_ptrs(mu, u);
}

}  // namespace photon_noise_detail

// The photo-electrons pixel `pixel` of frame `frame` records for a frame intensity `intensity`.
// μ <= 0 gives 0 counts (plus read noise); a NaN or infinite μ is returned as it is.
PSFSIM_HD inline double noisy_pixel(double intensity, std::uint64_t frame, std::uint64_t pixel,
                                    const NoiseModel& m) {
  namespace d = photon_noise_detail;
  const double mu = d::add(d::mul(intensity, m.photons_scale), m.background);
  d::Uniforms poisson_draws(m.seed, frame, pixel, 1);
  const double counts = d::poisson(mu, poisson_draws);
  if (m.read_noise == 0.0) return counts;
  d::Uniforms read_draws(m.seed, frame, pixel, 0);
  return d::add(counts, d::mul(m.read_noise, d::standard_normal(read_draws)));
}

}  // namespace psfsim

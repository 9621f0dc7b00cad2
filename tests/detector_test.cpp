// Detector effects: pixel integration, Gaussian jitter, photon and read noise (docs/spec.md §6).
#include "psfsim/detector.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <vector>

#include "psfsim/photon_noise.hpp"

namespace psfsim {
namespace {

template <typename T>
std::vector<T> random_image(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(u(rng));
  return v;
}

template <typename T>
bool bit_identical(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// ---- binning ----

TEST(Detector, BinningWithS1IsAnExactCopy) {
  auto sub = random_image<float>(7 * 7, 1);
  sub[3] = -0.0f;
  sub[4] = 1e-45f;  // denormal
  std::vector<float> out(sub.size(), 9.0f);
  bin_oversampled(sub.data(), 7, 1, out.data());
  EXPECT_TRUE(bit_identical(out, sub));
}

TEST(Detector, BinningSumsEachBlock) {
  // K = 2, S = 3 on a 6 x 6 image whose value encodes its position.
  const int K = 2, S = 3, e = K * S;
  std::vector<double> sub(e * e);
  for (int r = 0; r < e; ++r)
    for (int c = 0; c < e; ++c) sub[r * e + c] = 100.0 * r + c;
  std::vector<double> out(K * K);
  bin_oversampled(sub.data(), K, S, out.data());
  for (int R = 0; R < K; ++R) {
    for (int C = 0; C < K; ++C) {
      double expected = 0.0;
      for (int i = 0; i < S; ++i)
        for (int j = 0; j < S; ++j) expected += 100.0 * (R * S + i) + (C * S + j);
      EXPECT_EQ(out[R * K + C], expected) << R << "," << C;
    }
  }
}

TEST(Detector, BinningConservesTheSum) {
  for (const int S : {2, 3, 4}) {
    const int K = 17;
    const auto sub = random_image<double>(static_cast<std::size_t>(K * S) * (K * S), 2);
    std::vector<double> out(K * K);
    bin_oversampled(sub.data(), K, S, out.data());
    const double in_sum = std::accumulate(sub.begin(), sub.end(), 0.0);
    EXPECT_NEAR(std::accumulate(out.begin(), out.end(), 0.0), in_sum, 1e-12 * in_sum) << S;

    const auto subf = random_image<float>(static_cast<std::size_t>(K * S) * (K * S), 3);
    std::vector<float> outf(K * K);
    bin_oversampled(subf.data(), K, S, outf.data());
    double fin = 0.0, fout = 0.0;
    for (float x : subf) fin += x;
    for (float x : outf) fout += x;
    EXPECT_NEAR(fout, fin, 1e-6 * fin) << S;
  }
}

// ---- jitter ----

// The kernel of detector.hpp written out: exp(-n²/2σ²) for |n| <= ceil(4σ), normalized.
std::vector<double> reference_kernel(double sigma) {
  const int r = static_cast<int>(std::ceil(4 * sigma));
  std::vector<double> g(2 * r + 1);
  for (int n = -r; n <= r; ++n) g[n + r] = std::exp(-n * n / (2 * sigma * sigma));
  const double sum = std::accumulate(g.begin(), g.end(), 0.0);
  for (auto& x : g) x /= sum;
  return g;
}

TEST(Detector, JitterOfZeroIsBitIdentical) {
  auto d = random_image<double>(33 * 33, 4);
  const auto d0 = d;
  std::vector<double> scratch(d.size());
  apply_jitter(d.data(), 33, 0.0, scratch.data());
  EXPECT_TRUE(bit_identical(d, d0));
  auto f = random_image<float>(33 * 33, 5);
  const auto f0 = f;
  std::vector<float> fscratch(f.size());
  apply_jitter(f.data(), 33, 0.0, fscratch.data());
  EXPECT_TRUE(bit_identical(f, f0));
}

TEST(Detector, JitterOfADeltaIsTheNormalizedSampledGaussian) {
  for (const double sigma : {0.3, 1.0, 1.3, 2.7}) {
    const int e = 41, centre = 20;
    const auto g = reference_kernel(sigma);
    const int r = static_cast<int>(g.size() / 2);
    std::vector<double> img(e * e, 0.0), scratch(e * e);
    img[centre * e + centre] = 1.0;
    apply_jitter(img.data(), e, sigma, scratch.data());
    for (int y = 0; y < e; ++y) {
      for (int x = 0; x < e; ++x) {
        const int dy = y - centre, dx = x - centre;
        const double expected =
            std::abs(dy) <= r && std::abs(dx) <= r ? g[dy + r] * g[dx + r] : 0.0;
        ASSERT_NEAR(img[y * e + x], expected, 1e-15 * g[r] * g[r])
            << "sigma " << sigma << " at " << dy << "," << dx;
      }
    }
  }
}

TEST(Detector, JitterKernelTruncatesAtFourSigmaAndKeepsItsNormalization) {
  EXPECT_EQ(jitter_radius(0.0), 0);
  EXPECT_EQ(jitter_radius(0.25), 1);
  EXPECT_EQ(jitter_radius(0.26), 2);
  EXPECT_EQ(jitter_radius(2.5), 10);
  EXPECT_EQ(jitter_kernel(0.0, 5), std::vector<double>{1.0});
  const auto full = jitter_kernel(2.5, 100);
  ASSERT_EQ(full.size(), 11u);
  const auto g = reference_kernel(2.5);
  for (std::size_t n = 0; n < full.size(); ++n) EXPECT_NEAR(full[n], g[10 + n], 1e-16) << n;
  const auto cut = jitter_kernel(2.5, 3);  // what an 4 x 4 image uses
  ASSERT_EQ(cut.size(), 4u);
  for (std::size_t n = 0; n < cut.size(); ++n) EXPECT_EQ(cut[n], full[n]);
}

TEST(Detector, JitterVarianceIsSigmaSquaredFromSevenTenthsOfAPixel) {
  for (const double sigma : {0.7, 1.0, 2.0, 5.0, 12.0}) {
    const auto w = jitter_kernel(sigma, 1000);
    double var = 0.0;
    for (std::size_t n = 1; n < w.size(); ++n) var += 2.0 * w[n] * double(n * n);
    EXPECT_NEAR(var / (sigma * sigma), 1.0, 3e-3) << sigma;
  }
}

TEST(Detector, JitterConservesEnergyAwayFromTheEdges) {
  const int e = 64;
  std::vector<double> img(e * e, 0.0), scratch(e * e);
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int y = 28; y < 36; ++y)
    for (int x = 26; x < 37; ++x) img[y * e + x] = u(rng);
  const double before = std::accumulate(img.begin(), img.end(), 0.0);
  apply_jitter(img.data(), e, 2.5, scratch.data());  // reach 10: stays inside
  const double after = std::accumulate(img.begin(), img.end(), 0.0);
  EXPECT_NEAR(after, before, 1e-12 * before);
  EXPECT_GT(img[18 * e + 32], 0.0);  // it did spread
}

TEST(Detector, JitterLosesWhatLeavesTheFrame) {
  const int e = 16;
  const double sigma = 1.5;
  std::vector<double> img(e * e, 0.0), scratch(e * e);
  img[0] = 1.0;  // a corner: only the kernel's quarter with n >= 0 stays on each axis
  apply_jitter(img.data(), e, sigma, scratch.data());
  const auto w = jitter_kernel(sigma, e);
  const double kept_1d = std::accumulate(w.begin(), w.end(), 0.0);
  EXPECT_NEAR(std::accumulate(img.begin(), img.end(), 0.0), kept_1d * kept_1d, 1e-15);
  EXPECT_GT(kept_1d, 0.5);
  EXPECT_LT(kept_1d, 0.7);
}

TEST(Detector, JitterInFloatMatchesDouble) {
  const int e = 48;
  const auto d0 = random_image<double>(e * e, 7);
  std::vector<float> f(d0.begin(), d0.end()), fs(e * e);
  std::vector<double> d(f.begin(), f.end()), ds(e * e);
  apply_jitter(f.data(), e, 1.7, fs.data());
  apply_jitter(d.data(), e, 1.7, ds.data());
  for (int i = 0; i < e * e; ++i) ASSERT_NEAR(f[i], d[i], 1e-6 * d[i]) << i;
}

TEST(Detector, JitterRejectsANegativeOrNonFiniteSigma) {
  std::vector<double> img(9, 1.0), scratch(9);
  EXPECT_THROW(apply_jitter(img.data(), 3, -0.5, scratch.data()), std::invalid_argument);
  EXPECT_THROW(apply_jitter(img.data(), 3, std::nan(""), scratch.data()), std::invalid_argument);
  EXPECT_THROW(apply_jitter(img.data(), 3, HUGE_VAL, scratch.data()), std::invalid_argument);
}

// ---- photon and read noise ----

struct Moments {
  double mean = 0, var = 0, kurtosis = 0;
};

Moments moments(const std::vector<double>& v) {
  const double n = static_cast<double>(v.size());
  Moments m;
  for (double x : v) m.mean += x;
  m.mean /= n;
  double m2 = 0, m4 = 0;
  for (double x : v) {
    const double d = (x - m.mean) * (x - m.mean);
    m2 += d;
    m4 += d * d;
  }
  m.var = m2 / (n - 1);
  m.kurtosis = (m4 / n) / ((m2 / n) * (m2 / n));
  return m;
}

// `pixels` pixels of one frame whose mean is mu = intensity * scale + background.
std::vector<double> noisy_frame(double intensity, const NoiseModel& m, std::size_t pixels,
                                std::uint64_t frame = 0) {
  std::vector<double> v(pixels, intensity);
  apply_photon_noise(v.data(), v.size(), frame, m);
  return v;
}

TEST(PhotonNoise, MeanAndVarianceAreMuPlusBackgroundAndPlusReadNoise) {
  struct Case {
    double intensity, scale, background, read_noise;
  };
  // Both sides of the switch from inversion (mu < 10) to PTRS, with and without B and R.
  const Case cases[] = {{0.5, 1, 0, 0}, {1, 2, 1, 0},   {3, 1, 0, 2},   {9.99, 1, 0, 0},
                        {5, 1, 5, 0},   {50, 1, 0, 0},  {4, 10, 10, 3}, {1e4, 1, 0, 0},
                        {1, 1e4, 0, 5}, {0, 1, 0, 1.5}, {2e6, 1, 0, 0}};
  const std::size_t n = 1'000'000;
  std::uint64_t seed = 100;
  for (const Case& c : cases) {
    const NoiseModel m{c.scale, c.background, c.read_noise, seed++};
    const auto v = noisy_frame(c.intensity, m, n);
    const Moments s = moments(v);
    const double mu = c.intensity * c.scale + c.background;
    const double k2 = mu + c.read_noise * c.read_noise;  // cumulants of Poisson + Normal
    const double k4 = mu;
    const double se_mean = std::sqrt(k2 / n);
    const double se_var = std::sqrt((k4 + 2 * k2 * k2) / n);
    EXPECT_NEAR(s.mean, mu, 4.5 * se_mean) << "mu " << mu << " R " << c.read_noise;
    EXPECT_NEAR(s.var, k2, 4.5 * se_var) << "mu " << mu << " R " << c.read_noise;
  }
}

double poisson_pmf(double mu, int k) {
  return std::exp(-mu + k * std::log(mu) - std::lgamma(k + 1.0));
}

TEST(PhotonNoise, CountsFollowThePoissonDistribution) {
  // Chi-square against the pmf: one bin per count expecting >= 50 draws, the two tails
  // pooled. Catches a sampler with the right mean and variance but the wrong shape.
  const std::size_t n = 1'000'000;
  for (const double mu : {0.5, 3.0, 9.5, 10.0, 15.0, 50.0, 700.0}) {
    const auto v = noisy_frame(mu, NoiseModel{1, 0, 0, 7}, n);
    const int top = static_cast<int>(mu + 12 * std::sqrt(mu) + 20);
    std::vector<double> observed(top + 2, 0.0);  // the last bin: everything above top
    for (double x : v) observed[static_cast<std::size_t>(std::min<double>(x, top + 1))] += 1;
    std::vector<double> expected(top + 2, 0.0);
    for (int k = 0; k <= top; ++k) expected[k] = n * poisson_pmf(mu, k);
    const int first = static_cast<int>(
        std::find_if(expected.begin(), expected.end(), [](double e) { return e >= 50; }) -
        expected.begin());
    int last = first;
    while (expected[last + 1] >= 50) ++last;
    double low_e = 0, low_o = 0, high_e = n, high_o = 0;
    for (int k = 0; k <= top + 1; ++k) {
      if (k < first) low_e += expected[k], low_o += observed[k];
      if (k <= last) high_e -= expected[k];
      if (k > last) high_o += observed[k];
    }
    double chi2 = 0;
    int bins = 0;
    auto add = [&](double e, double o) {
      chi2 += (o - e) * (o - e) / e;
      ++bins;
    };
    for (int k = first; k <= last; ++k) add(expected[k], observed[k]);
    if (first > 0) add(low_e, low_o);
    add(high_e, high_o);
    const double df = bins - 1;
    EXPECT_LT(chi2, df + 5 * std::sqrt(2 * df)) << "mu " << mu << " bins " << bins;
  }
}

TEST(PhotonNoise, ReadNoiseIsGaussian) {
  const auto v = noisy_frame(0.0, NoiseModel{1, 0, 1, 8}, 1'000'000);
  const Moments s = moments(v);
  EXPECT_NEAR(s.mean, 0.0, 4.5e-3);
  EXPECT_NEAR(s.var, 1.0, 4.5 * std::sqrt(2.0 / 1e6));
  EXPECT_NEAR(s.kurtosis, 3.0, 4.5 * std::sqrt(24.0 / 1e6));
  const double within_one =
      std::count_if(v.begin(), v.end(), [](double x) { return std::fabs(x) < 1; });
  const double p1 = std::erf(1 / std::sqrt(2.0));
  EXPECT_NEAR(within_one / 1e6, p1, 4.5 * std::sqrt(p1 * (1 - p1) / 1e6));
  const double beyond_four =
      std::count_if(v.begin(), v.end(), [](double x) { return std::fabs(x) > 4; });
  EXPECT_NEAR(beyond_four, 63.3, 4.5 * std::sqrt(63.3));
}

TEST(PhotonNoise, WithoutReadNoiseCountsAreNonNegativeIntegers) {
  for (const double mu : {0.2, 4.0, 9.999, 10.0, 37.2, 1e5, 3e9}) {
    const auto v = noisy_frame(mu, NoiseModel{1, 0, 0, 9}, 20000);
    bool any_fraction = false, any_negative = false;
    for (double x : v) {
      any_fraction |= x != std::floor(x);
      any_negative |= x < 0;
    }
    EXPECT_FALSE(any_fraction) << mu;
    EXPECT_FALSE(any_negative) << mu;
  }
}

TEST(PhotonNoise, EdgeMeans) {
  const NoiseModel m{1, 0, 0, 1};
  EXPECT_EQ(noisy_pixel(0.0, 0, 0, m), 0.0);
  EXPECT_EQ(noisy_pixel(-3.0, 0, 0, m), 0.0);
  EXPECT_TRUE(std::isnan(noisy_pixel(std::nan(""), 0, 0, m)));
  EXPECT_EQ(noisy_pixel(HUGE_VAL, 0, 0, m), HUGE_VAL);
}

TEST(PhotonNoise, AValueDependsOnlyOnSeedFramePixelAndMean) {
  const NoiseModel m{100.0, 2.0, 1.5, 42};
  const std::size_t pixels = 4096;
  const int frames = 6;
  std::vector<std::vector<double>> intensity(frames);
  for (int f = 0; f < frames; ++f) intensity[f] = random_image<double>(pixels, 20 + f);

  std::vector<std::vector<double>> in_order(frames);
  for (int f = 0; f < frames; ++f) {
    in_order[f] = intensity[f];
    apply_photon_noise(in_order[f].data(), pixels, f, m);
  }
  for (int f = frames - 1; f >= 0; --f) {  // another order, twice
    auto again = intensity[f];
    apply_photon_noise(again.data(), pixels, f, m);
    EXPECT_TRUE(bit_identical(again, in_order[f])) << f;
  }
  // Pixel by pixel in a shuffled order, as any chunking or thread split would.
  std::vector<std::size_t> order(pixels * frames);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937(3));
  std::size_t mismatches = 0;
  for (const std::size_t id : order) {
    const std::size_t f = id / pixels, p = id % pixels;
    const double v = noisy_pixel(intensity[f][p], f, p, m);
    mismatches += std::memcmp(&v, &in_order[f][p], sizeof v) != 0;
  }
  EXPECT_EQ(mismatches, 0u);
}

TEST(PhotonNoise, FloatFramesRoundTheDoubleValue) {
  const NoiseModel m{30.0, 1.0, 2.0, 5};
  auto f = random_image<float>(5000, 10);
  const auto f0 = f;
  apply_photon_noise(f.data(), f.size(), 3, m);
  for (std::size_t i = 0; i < f.size(); ++i)
    ASSERT_EQ(f[i], static_cast<float>(noisy_pixel(static_cast<double>(f0[i]), 3, i, m))) << i;
}

// The fraction of pixels where two noisy frames of the same mean agree.
double agreement(const std::vector<double>& a, const std::vector<double>& b) {
  std::size_t same = 0;
  for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == b[i];
  return static_cast<double>(same) / static_cast<double>(a.size());
}

TEST(PhotonNoise, EveryBitOfSeedFrameAndPixelMatters) {
  const std::size_t n = 10000;
  const NoiseModel base{1.0, 0.0, 1.0, 1};
  const auto a = noisy_frame(1000.0, base, n, 0);
  NoiseModel other = base;
  other.seed = 2;
  EXPECT_LT(agreement(a, noisy_frame(1000.0, other, n, 0)), 1e-3);
  other.seed = 1 + (std::uint64_t{1} << 32);
  EXPECT_LT(agreement(a, noisy_frame(1000.0, other, n, 0)), 1e-3);
  EXPECT_LT(agreement(a, noisy_frame(1000.0, base, n, 1)), 1e-3);
  EXPECT_LT(agreement(a, noisy_frame(1000.0, base, n, std::uint64_t{1} << 32)), 1e-3);
  EXPECT_LT(agreement(a, noisy_frame(1000.0, base, n, std::uint64_t{1} << 63)), 1e-3);
  // Pixel p against pixel p + 2^32 and p + 2^47: the counter keeps 48 bits of the pixel.
  for (const std::uint64_t offset : {std::uint64_t{1} << 32, std::uint64_t{1} << 47}) {
    std::size_t same = 0;
    for (std::size_t p = 0; p < n; ++p) same += noisy_pixel(1000.0, 0, p + offset, base) == a[p];
    EXPECT_LT(same, 10u) << offset;
  }
  // Neighbouring pixels are not one stream shifted by a draw.
  std::size_t shifted = 0;
  for (std::size_t p = 1; p < n; ++p) shifted += a[p] == a[p - 1];
  EXPECT_LT(shifted, 10u);
}

TEST(PhotonNoise, ReadNoiseOfAPixelDoesNotDependOnTheMean) {
  const NoiseModel with{1.0, 0.0, 2.0, 77}, without{1.0, 0.0, 0.0, 77};
  for (std::uint64_t p = 0; p < 1000; ++p) {
    const double low = noisy_pixel(3.0, 5, p, with) - noisy_pixel(3.0, 5, p, without);
    const double high = noisy_pixel(400.0, 5, p, with) - noisy_pixel(400.0, 5, p, without);
    ASSERT_NEAR(low, high, 1e-12) << p;
  }
}

TEST(PhotonNoise, PhiloxIsRandom123sPhilox4x32_10) {
  // Random123's known-answer vectors (kat_vectors): counter, key -> output.
  struct Kat {
    std::uint32_t ctr[4], key[2], out[4];
  };
  const Kat kats[] = {{{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
                      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
                       {0xffffffff, 0xffffffff},
                       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
                      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                       {0xa4093822, 0x299f31d0},
                       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}};
  for (const Kat& k : kats) {
    r123::Philox4x32::ctr_type c = {{k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3]}};
    r123::Philox4x32::key_type key = {{k.key[0], k.key[1]}};
    const auto out = r123::Philox4x32()(c, key);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out.v[i], k.out[i]) << i;
  }
}

TEST(PhotonNoise, TheStreamIsPinned) {
  // Values recorded from this implementation: a change of the counter layout, the uniform
  // conversion or a sampler changes every noisy file ever written with a seed. The counts are
  // integers, the same on every platform; the read noise goes through log and cos.
  const NoiseModel m{1.0, 0.0, 0.0, 2024};
  const double mus[] = {0.5, 3.0, 9.0, 10.0, 120.0, 1e6};
  const double counts[][4] = {{0, 1, 0, 1},         {2, 5, 0, 3},
                              {8, 12, 4, 10},       {9, 12, 21, 11},
                              {117, 133, 125, 123}, {999777, 1001166, 1001180, 1000311}};
  for (int i = 0; i < 6; ++i)
    for (int p = 0; p < 4; ++p)
      EXPECT_EQ(noisy_pixel(mus[i], 7, static_cast<std::uint64_t>(p), m), counts[i][p])
          << "mu " << mus[i] << " pixel " << p;
  const NoiseModel r{1.0, 0.0, 1.0, 2024};
  const double read[] = {1.4476551788722394, -0.30877723926069733, 2.4883578360745786,
                         -0.35591515394465523};
  for (int p = 0; p < 4; ++p)
    EXPECT_NEAR(noisy_pixel(0.0, 7, static_cast<std::uint64_t>(p), r), read[p], 1e-14) << p;
}

TEST(PhotonNoise, LogGammaMatchesTheLibrary) {
  for (double x = 1.0; x < 3000.0; x = x < 20 ? x + 0.25 : x * 1.1)
    EXPECT_NEAR(photon_noise_detail::log_gamma(x), std::lgamma(x),
                1e-13 * std::max(1.0, std::lgamma(x)))
        << x;
}

}  // namespace
}  // namespace psfsim

// Batches: the same frames as single runs, reproducible random draws, and the frame sources'
// parsing rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <new>
#include <random>
#include <thread>

#include "psfsim/contiguous_parallel.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/frames_file.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

class BatchMatchesSingles : public ::testing::TestWithParam<std::tuple<std::string, Precision>> {
 protected:
  void SetUp() override {
    if (const std::string why = skip_reason(std::get<0>(GetParam())); !why.empty())
      GTEST_SKIP() << std::get<0>(GetParam()) << " backend: " << why;
  }
};

TEST_P(BatchMatchesSingles, EveryFrameEqualsItsOwnSingleRun) {
  const auto [backend, precision] = GetParam();
  Case c;
  c.samples = 48;
  c.padded = 111;  // odd M
  c.crop = 40;
  c.normalization = Normalization::sum;
  const auto frames = expand(Aberration{{{2, 1, 0.3}}, {}}, parse_random("4-11,0.2,7,3"));
  const auto batch = compute_frames(backend, c, frames, precision);
  ASSERT_EQ(batch.size(), frames.size());
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const auto single = compute_frames(backend, c, {frames[f]}, precision).front();
    EXPECT_LT(relative_l2(batch[f], single), batching_tolerance(precision)) << "frame " << f;
  }
  // Frames really differ, so a batch repeating frame 0 would fail above.
  EXPECT_GT(relative_l2(batch[1], batch[0]), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(Backends, BatchMatchesSingles,
                         ::testing::Combine(::testing::ValuesIn(compiled_backends()),
                                            ::testing::Values(Precision::single,
                                                              Precision::double_)));

TEST(AberrationSources, VaryStepsLinearlyAndReplacesTheFixedValue) {
  const auto frames = expand(Aberration{{}, {{4, 9.0}, {11, 0.05}}}, parse_vary("Z4,-1,1,5"));
  ASSERT_EQ(frames.size(), 5u);
  const double expected[] = {-1.0, -0.5, 0.0, 0.5, 1.0};
  for (int i = 0; i < 5; ++i) {
    double z4 = NAN, z11 = NAN;
    for (const auto& t : frames[i].zernike) (t.j == 4 ? z4 : z11) = t.waves;
    EXPECT_DOUBLE_EQ(z4, expected[i]);
    EXPECT_DOUBLE_EQ(z11, 0.05);
    EXPECT_EQ(frames[i].zernike.size(), 2u);
  }
  const auto seidel = expand(Aberration{}, parse_vary("S2_0,0,2,3"));
  EXPECT_DOUBLE_EQ(seidel[2].seidel.at(0).waves, 2.0);
  EXPECT_EQ(seidel[2].seidel.at(0).l, 2);
}

// The draws, however the frames are built, are the raw Mersenne Twister stream through
// Box-Muller in order (written out here from the definition): files made by earlier versions
// from the same seed hold the same coefficients. An odd number of draws per frame (7) puts
// the pairs across frame boundaries; 20,001 frames span several of the blocks in which the
// stream is drawn while the frames are built, the last one partial.
TEST(AberrationSources, RandomDrawsAreTheSeedsBoxMullerStreamInOrder) {
  const auto frames = expand(Aberration{}, parse_random("4-10,0.35,20001,2026"));
  std::mt19937_64 engine(2026);
  const double sigma = 0.35 / std::sqrt(7.0);
  double spare = 0.0;
  bool has_spare = false;
  const auto next = [&] {
    if (has_spare) {
      has_spare = false;
      return spare;
    }
    const double u1 = (static_cast<double>(engine() >> 11) + 1.0) * 0x1.0p-53;
    const double u2 = static_cast<double>(engine() >> 11) * 0x1.0p-53;
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare = r * std::sin(2.0 * M_PI * u2);
    has_spare = true;
    return r * std::cos(2.0 * M_PI * u2);
  };
  ASSERT_EQ(frames.size(), 20001u);
  for (const auto& frame : frames) {
    ASSERT_EQ(frame.zernike.size(), 7u);
    for (int j = 4; j <= 10; ++j) {
      EXPECT_EQ(frame.zernike[j - 4].j, j);
      ASSERT_EQ(frame.zernike[j - 4].waves, sigma * next());
    }
  }
}

// Frames drawn chunk by chunk as a run reaches them, in any order (a repeat goes back to the
// start) and from an offset into the stream (an MPI rank's block), are the held frames: the
// same terms, bit for bit. 7 draws a frame put chunk and block starts mid-pair.
TEST(AberrationSources, DrawnFramesInAnyOrderAndFromAnOffsetAreTheHeldOnes) {
  const Aberration fixed{{{2, 1, 0.3}}, {{5, 0.02}, {4, 0.7}}};  // Z4 is drawn over
  const RandomSpec spec = parse_random("4-10,0.35,1001,99");
  const auto held = expand(fixed, spec);
  const auto same = [](const Aberration& a, const Aberration& b) {
    if (a.seidel.size() != b.seidel.size() || a.zernike.size() != b.zernike.size()) return false;
    for (std::size_t i = 0; i < a.seidel.size(); ++i)
      if (a.seidel[i].l != b.seidel[i].l || a.seidel[i].m != b.seidel[i].m ||
          a.seidel[i].waves != b.seidel[i].waves)
        return false;
    for (std::size_t i = 0; i < a.zernike.size(); ++i)
      if (a.zernike[i].j != b.zernike[i].j || a.zernike[i].waves != b.zernike[i].waves)
        return false;
    return true;
  };
  RandomAberrationDraws all({fixed, spec});
  ASSERT_EQ(all.size(), 1001u);
  const std::pair<std::size_t, std::size_t> chunks[] = {{0, 3}, {3, 250},  {253, 1}, {600, 401},
                                                        {1, 5}, {0, 1001}, {999, 2}};
  for (const auto& [first, count] : chunks) {
    all.draw(first, count);
    for (std::size_t f = first; f < first + count; ++f)
      ASSERT_TRUE(same(all.frame(f), held[f])) << "frame " << f << " of chunk at " << first;
  }
  for (const std::size_t offset : {1u, 2u, 333u, 1000u}) {
    RandomSpec block = spec;
    block.count = static_cast<int>(1001 - offset);
    RandomAberrationDraws rank({fixed, block}, offset);
    rank.draw(0, rank.size());
    for (std::size_t f = 0; f < rank.size(); ++f)
      ASSERT_TRUE(same(rank.frame(f), held[offset + f])) << "offset " << offset << ", frame " << f;
    // Chunk by chunk from a skip to the block's start (draw(0, 0)): with 7 terms and an odd
    // offset, chunks end inside a Box-Muller pair, which the next chunk takes over.
    RandomAberrationDraws chunked({fixed, block}, offset);
    chunked.draw(0, 0);
    for (std::size_t first = 0; first < chunked.size(); first += 97) {
      const std::size_t count = std::min<std::size_t>(97, chunked.size() - first);
      chunked.draw(first, count);
      for (std::size_t f = first; f < first + count; ++f)
        ASSERT_TRUE(same(chunked.frame(f), held[offset + f]))
            << "offset " << offset << ", chunked, frame " << f;
    }
  }
  const Aberration any = all.any_frame();
  EXPECT_EQ(any.seidel.size(), 1u);
  EXPECT_EQ(any.zernike.size(), 7u);  // Z4..Z10: the fixed Z4 and Z5 are drawn over
}

TEST(AberrationSources, RandomIsReproducibleFromItsSeedAndHasTheRequestedRms) {
  const auto a = expand(Aberration{}, parse_random("4-15,0.1,4000,42"));
  const auto b = expand(Aberration{}, parse_random("4-15,0.1,4000,42"));
  const auto c = expand(Aberration{}, parse_random("4-15,0.1,4000,43"));
  double sum_squares = 0.0;
  bool all_equal = true, any_differs = false;
  for (std::size_t f = 0; f < a.size(); ++f) {
    ASSERT_EQ(a[f].zernike.size(), 12u);
    for (std::size_t t = 0; t < 12; ++t) {
      all_equal &= a[f].zernike[t].waves == b[f].zernike[t].waves;
      any_differs |= a[f].zernike[t].waves != c[f].zernike[t].waves;
      sum_squares += a[f].zernike[t].waves * a[f].zernike[t].waves;
    }
  }
  EXPECT_TRUE(all_equal);
  EXPECT_TRUE(any_differs);
  // Noll terms are orthonormal, so the wavefront RMS^2 of a frame is the sum of c_j^2.
  EXPECT_NEAR(std::sqrt(sum_squares / a.size()), 0.1, 0.003);
}

TEST(AberrationSources, RejectsMalformedSpecifications) {
  for (const char* bad :
       {"Z4,0,1", "Z0,0,1,3", "Q4,0,1,3", "Z4,0,x,3", "Z4,0,1,0", "S2_3,0,1,2", "Z4,nan,1,3"})
    EXPECT_THROW((void)parse_vary(bad), InputError) << bad;
  for (const char* bad : {"4-15,0.1,10", "15-4,0.1,10,1", "4-15,-1,10,1", "4,0.1,10,1",
                          "4-15,0.1,0,1", "4-15,0.1,10,-1"})
    EXPECT_THROW((void)parse_random(bad), InputError) << bad;
}

std::string name_line(const std::string& name, int line) {
  return name + ".csv:" + std::to_string(line);
}

TEST(AberrationSources, CsvErrorsNameTheFileAndLine) {
  const std::string dir = temp_dir();
  const auto expect_error = [&](const std::string& name, const std::string& text,
                                const std::string& mention) {
    const std::string path = dir + "/" + name + ".csv";
    std::ofstream(path) << text;
    try {
      (void)read_frames_csv(Aberration{}, path);
      ADD_FAILURE() << name << ": accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(mention), std::string::npos) << e.what();
    }
  };
  expect_error("missing_column", "Z4,Z11\n0.1,0.2\n0.3\n", name_line("missing_column", 3));
  expect_error("unknown_term", "Z4,X9\n0.1,0.2\n", name_line("unknown_term", 1));
  expect_error("not_a_number", "Z4,S2_1\n0.1,0.2\n# comment\n0.1,abc\n",
               name_line("not_a_number", 4));
  expect_error("empty", "", "no header");
  const std::string ok = dir + "/ok.csv";
  std::ofstream(ok) << "Z4, S2_1\n0.1, 0.2\n\n-0.1, 0.4\r\n";
  const auto frames = read_frames_csv(Aberration{{}, {{11, 0.05}}}, ok);
  ASSERT_EQ(frames.size(), 2u);
  EXPECT_EQ(frames[1].zernike.size(), 2u);
  EXPECT_DOUBLE_EQ(frames[1].seidel.at(0).waves, 0.4);
}

// The host's parallel passes (building frames, compiling phases, /parameters) end with the
// exception of a run that failed, out of memory say, rethrown to the caller once every run
// has finished: not std::terminate, and not before the other runs let go of their data.
TEST(ContiguousRuns, AFailedRunIsRethrownToTheCallerAfterEveryRunHasFinished) {
  std::vector<int> done(1000, 0);
  const auto work = [&](std::size_t first, std::size_t last) {
    if (first == 0) throw std::bad_alloc();
    for (std::size_t i = first; i < last; ++i) done[i] = 1;
  };
  EXPECT_THROW(for_contiguous_runs(done.size(), work, 4), std::bad_alloc);
  if (std::thread::hardware_concurrency() > 1) {  // then the other runs had threads of their own
    EXPECT_EQ(done.back(), 1);
  }
  std::vector<int> all(1000, 0);
  for_contiguous_runs(all.size(), [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) all[i] += 1;
  });
  EXPECT_EQ(std::count(all.begin(), all.end(), 1), 1000);
}

}  // namespace
}  // namespace psfsim::test

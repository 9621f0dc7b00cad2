// The backend contract of docs/spec.md §4, one suite for every compiled backend and both
// precisions:
// results against a direct DFT written from docs/spec.md §1 alone (odd and even N and M, both
// grids,
// crops, the three normalizations), the lifetime of returned blocks, every output element
// rewritten, and the refusals. GPU instances skip visibly where no device is usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "psfsim/builtin_backends.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/psf_run.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

using Param = std::tuple<std::string, Precision>;

class BackendContract : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    if (const std::string why = skip_reason(backend()); !why.empty())
      GTEST_SKIP() << backend() << " backend not usable here: " << why;
  }
  [[nodiscard]] std::string backend() const { return std::get<0>(GetParam()); }
  [[nodiscard]] Precision precision() const { return std::get<1>(GetParam()); }
  [[nodiscard]] PsfPlan forty_frame_plan(Propagation propagation) const {
    PsfPlan plan = plan_for(make_case(32, 64, Grid::centered, Normalization::peak, 48, 0.1, {}),
                            precision(), 40);
    plan.propagation = propagation;
    return plan;
  }
  [[nodiscard]] std::unique_ptr<Backend> make(const Case& c, int max_batch) const {
    return builtin_backends().find(backend())->create(plan_for(c, precision(), max_batch));
  }
};

Aberration seidel(std::vector<SeidelTerm> terms) { return Aberration{std::move(terms), {}}; }

std::string describe(const Case& c) {
  return "N=" + std::to_string(c.samples) + " M=" + std::to_string(c.padded) +
         " K=" + std::to_string(c.crop) + " " + std::string(to_string(c.grid)) + " " +
         std::string(to_string(c.normalization)) + " eps=" + std::to_string(c.obscuration);
}

// Tilt, defocus, coma-like, spherical and an odd l - m (rho) term.
Aberration mixed() { return seidel({{2, 1, 1.0}, {3, 1, 0.4}, {4, 0, -0.3}, {2, 0, 0.2}}); }

// Two calls' frames: five unlike ones (one aberration-free, one with a Zernike term), then
// the last two of them.
struct TwoCalls {
  std::vector<Aberration> terms{mixed(), seidel({{2, 0, 1.0}}), seidel({}), seidel({{4, 0, 0.5}}),
                                Aberration{{{2, 1, -1.0}}, {{7, 0.1}}}};
  std::vector<AberrationPolynomial> full = compile_all(terms);
  std::vector<AberrationPolynomial> part = compile_all({terms.begin() + 3, terms.end()});
};

TEST_P(BackendContract, MatchesDirectDft) {
  const std::vector<Case> cases{
      make_case(16, 32, Grid::centered, Normalization::none, 0, 0.0, mixed()),
      make_case(16, 35, Grid::centered, Normalization::none, 0, 0.0, mixed()),   // odd M
      make_case(15, 40, Grid::linspace, Normalization::none, 0, 0.0, mixed()),   // odd N
      make_case(17, 41, Grid::centered, Normalization::peak, 0, 0.25, mixed()),  // odd N, M
      make_case(16, 37, Grid::linspace, Normalization::peak, 21, 0.0, mixed()),  // odd K
      make_case(20, 44, Grid::centered, Normalization::sum, 30, 0.3, mixed()),
      make_case(13, 27, Grid::centered, Normalization::sum, 9, 0.0,
                seidel({{2, 2, 0.7}, {5, 3, 0.2}, {1, 1, -2.0}, {3, 2, 0.3}})),  // m >= 2
      make_case(12, 31, Grid::linspace, Normalization::none, 0, 0.0,
                seidel({{4, 1, 0.4}, {5, 2, -0.3}, {6, 3, 0.2}})),  // odd l - m, m up to 3
      // Samples exactly at rho = 1 and at rho = obscuration (x = -1, -0.5 on the axis).
      make_case(8, 20, Grid::centered, Normalization::none, 0, 0.5, mixed()),
  };
  for (const Case& c : cases) {
    const std::vector<double> psf = compute_frame(backend(), c, precision());
    const std::vector<double> reference = direct_dft_psf(c);
    EXPECT_LE(relative_l2(psf, reference), reference_tolerance(precision())) << describe(c);
  }
}

TEST_P(BackendContract, AberrationFreeCentreIsOneUnderPeakNormalization) {
  for (const Case& c : {make_case(32, 64, Grid::centered, Normalization::peak, 0, 0.0, {}),
                        make_case(31, 64, Grid::centered, Normalization::peak, 15, 0.2, {})}) {
    const std::vector<double> psf = compute_frame(backend(), c, precision());
    const int k = c.crop > 0 ? c.crop : c.padded;
    const int centre = c.padded / 2 - (c.padded / 2 - k / 2);  // index M/2 inside the crop
    EXPECT_NEAR(psf[static_cast<std::size_t>(centre) * k + centre], 1.0, 1e-6) << describe(c);
    EXPECT_NEAR(*std::max_element(psf.begin(), psf.end()), 1.0, 1e-6) << describe(c);
  }
}

// A block stays valid until the second following call: after compute(a), compute(b), the
// first block's bytes are unchanged; repeated calls give the same bytes, a short batch after
// a full one included, and a frame alone equals the same frame inside a batch. The shapes
// cover the GPU's direct host write, copies after one graph, and copies in pieces.
TEST_P(BackendContract, BlockStaysValidUntilTheSecondFollowingCall) {
  const TwoCalls calls;
  const auto& [terms, full, part] = calls;
  for (const Case& c : {make_case(64, 128, Grid::centered, Normalization::sum, 40, 0.1, {}),
                        make_case(128, 256, Grid::centered, Normalization::peak, 0, 0.0, {}),
                        make_case(256, 512, Grid::centered, Normalization::peak, 0, 0.0, {})}) {
    SCOPED_TRACE(describe(c));
    const auto b = make(c, 5);
    const FrameBlock a = b->compute(full);
    ASSERT_EQ(a.frames, 5u);
    const auto a_bytes = bytes_of(a, b->plan());
    const FrameBlock next = b->compute(part);
    ASSERT_EQ(next.frames, 2u);
    EXPECT_NE(next.data, a.data);
    EXPECT_EQ(bytes_of(a, b->plan()), a_bytes);
    const auto next_bytes = bytes_of(next, b->plan());
    for (int round = 0; round < 2; ++round) {
      EXPECT_EQ(bytes_of(b->compute(full), b->plan()), a_bytes) << "round " << round;
      EXPECT_EQ(bytes_of(b->compute(part), b->plan()), next_bytes) << "round " << round;
    }
    const std::vector<double> alone = compute_frames(backend(), c, {terms[3]}, precision()).front();
    const std::vector<double> in_batch = widen(a, b->plan());
    const std::size_t k2 = b->plan().frame_elements();
    EXPECT_LE(relative_l2(alone, {in_batch.begin() + 3 * k2, in_batch.begin() + 4 * k2}),
              batching_tolerance(precision()));
  }
}

// Two calls submitted at once (a device queues the second behind the first) finish in order,
// each equal to the same call made alone; a block outlives the next finish() and the next
// two submit()s.
TEST_P(BackendContract, SubmittedCallsFinishInOrderAndEqualSingleCalls) {
  const TwoCalls calls;
  const auto& full = calls.full;
  const auto& part = calls.part;
  for (const Case& c : {make_case(64, 128, Grid::centered, Normalization::sum, 40, 0.1, {}),
                        make_case(256, 512, Grid::centered, Normalization::peak, 0, 0.0, {})}) {
    SCOPED_TRACE(describe(c));
    const auto b = make(c, 5);
    const auto full_bytes = bytes_of(b->compute(full), b->plan());
    const auto part_bytes = bytes_of(b->compute(part), b->plan());

    b->submit(full);
    b->submit(part);
    EXPECT_THROW(b->submit(full), RuntimeFailure);  // at most two pending
    const FrameBlock first = b->finish();
    ASSERT_EQ(first.frames, 5u);
    EXPECT_EQ(bytes_of(first, b->plan()), full_bytes);
    EXPECT_GT(first.times.total, 0.0);
    b->submit(full);
    const FrameBlock second = b->finish();
    ASSERT_EQ(second.frames, 2u);
    EXPECT_EQ(bytes_of(second, b->plan()), part_bytes);
    EXPECT_EQ(bytes_of(first, b->plan()), full_bytes);
    b->submit(part);
    const FrameBlock third = b->finish();
    EXPECT_EQ(bytes_of(third, b->plan()), full_bytes);
    EXPECT_EQ(bytes_of(second, b->plan()), part_bytes);
    EXPECT_EQ(bytes_of(b->finish(), b->plan()), part_bytes);
    EXPECT_THROW((void)b->finish(), RuntimeFailure);  // nothing pending
  }
}

// Calls of 40 frames at N = 32, K = 48: more tables than a launch's parameters hold (a device
// stages them), and more than 256 KiB of frames (the MFT copies them after its graph).
std::vector<AberrationPolynomial> forty_frames(double scale) {
  std::vector<Aberration> terms;
  for (int f = 0; f < 40; ++f)
    terms.push_back(seidel({{2, 1, scale * (f - 20) / 20.0}, {4, 0, 0.3 * scale}, {3, 1, 0.1}}));
  return compile_all(terms);
}

// prepare_next: the next call laid out ahead while two are pending (PsfRun does so before
// each finish) gives the frames of a call laid out at its submit, through the FFT and the MFT.
// A submit given other polynomials than the prepared ones computes its own. Batches of 40
// frames carry more tables than a launch's parameters hold, so that a device stages them.
TEST_P(BackendContract, CallsPreparedAheadEqualCallsLaidOutAtSubmit) {
  const auto a = forty_frames(1.0);
  const auto b = forty_frames(-0.7);
  const auto c = forty_frames(0.4);
  for (const Propagation propagation : {Propagation::fft, Propagation::mft}) {
    SCOPED_TRACE(propagation == Propagation::mft ? "mft" : "fft");
    const PsfPlan plan = forty_frame_plan(propagation);
    const BackendEntry& entry = *builtin_backends().find(backend());
    const auto reference = entry.create(plan);
    const auto a_bytes = bytes_of(reference->compute(a), reference->plan());
    const auto b_bytes = bytes_of(reference->compute(b), reference->plan());
    const auto c_bytes = bytes_of(reference->compute(c), reference->plan());

    const auto backend = entry.create(plan);
    for (int round = 0; round < 2; ++round) {  // every slot, and the graphs replayed
      backend->submit(a);
      backend->submit(b);
      backend->prepare_next(a);
      EXPECT_EQ(bytes_of(backend->finish(), backend->plan()), a_bytes);
      backend->submit(a);  // as prepared
      backend->prepare_next(b);
      EXPECT_EQ(bytes_of(backend->finish(), backend->plan()), b_bytes);
      backend->submit(c);  // not as prepared
      EXPECT_EQ(bytes_of(backend->finish(), backend->plan()), a_bytes);
      EXPECT_EQ(bytes_of(backend->finish(), backend->plan()), c_bytes);
    }
  }
}

// submit_into: where the plan keeps frames in the backend's own memory (a device's, with
// frames_on_device), two calls in flight put their frames in the caller's buffer of that
// memory, equal to the same calls' frames left in the backend; a backend that cannot (a
// host's, by default) returns its own block for the caller to copy, with the same frames.
TEST_P(BackendContract, SubmitIntoPutsTheFramesInTheCallersMemory) {
  const TwoCalls calls;
  const Case c = make_case(64, 128, Grid::centered, Normalization::sum, 40, 0.1, {});
  const BackendEntry& entry = *builtin_backends().find(backend());
  PsfPlan plan = plan_for(c, precision(), 5);
  plan.frames_on_device = entry.site == ComputeSite::device;
  const auto b = entry.create(plan);
  int device = -1;
  const std::size_t bytes = 5 * plan.frame_bytes();
  const std::shared_ptr<void> memory = b->frame_memory(2 * bytes, device);
  auto* const out = static_cast<unsigned char*>(memory.get());
  const auto host_bytes = [&](const FrameBlock& block) {
    std::vector<unsigned char> v(block.frames * plan.frame_bytes());
    b->memory_copy()(v.data(), block.data, v.size(), device);
    return v;
  };
  const auto full = host_bytes(b->compute(calls.full));
  const auto part = host_bytes(b->compute(calls.part));

  b->submit_into(calls.full, out);
  b->submit_into(calls.part, out + bytes);
  const FrameBlock first = b->finish();
  const FrameBlock second = b->finish();
  ASSERT_EQ(first.frames, 5u);
  ASSERT_EQ(second.frames, 2u);
  if (plan.frames_on_device) {
    EXPECT_EQ(first.data, out);
    EXPECT_EQ(second.data, out + bytes);
  }
  EXPECT_EQ(host_bytes(first), full);
  EXPECT_EQ(host_bytes(second), part);
}

// submit_into host memory the backend pinned (host_frame_memory, for a caller that keeps a
// batch's frames on the host): two calls in flight give the frames of the same calls left in
// the backend, with the MFT's large outputs (40 frames of 48 x 48, copied after the graph)
// copied by the device straight into the caller's memory, and the frames still checked
// finite there. Elsewhere the block may be the backend's own, for the caller to copy. The
// memory outlives the backend; a host backend pins none.
TEST_P(BackendContract, SubmitIntoHostMemoryTheBackendPinned) {
  const auto a = forty_frames(1.0);
  const auto b = forty_frames(-0.7);
  const BackendEntry& entry = *builtin_backends().find(backend());
  for (const Propagation propagation : {Propagation::fft, Propagation::mft}) {
    SCOPED_TRACE(propagation == Propagation::mft ? "mft" : "fft");
    const PsfPlan plan = forty_frame_plan(propagation);
    auto made = entry.create(plan);
    const auto a_bytes = bytes_of(made->compute(a), made->plan());
    const auto b_bytes = bytes_of(made->compute(b), made->plan());
    const std::size_t bytes = 40 * plan.frame_bytes();
    std::shared_ptr<void> pinned = made->host_frame_memory(2 * bytes);
    if (entry.site == ComputeSite::host) {
      EXPECT_EQ(pinned, nullptr);
      continue;
    }
    ASSERT_NE(pinned, nullptr);
    auto* const out = static_cast<unsigned char*>(pinned.get());
    for (int round = 0; round < 2; ++round) {                         // every slot
      std::fill_n(out, 2 * bytes, static_cast<unsigned char>(0xff));  // NaNs
      made->submit_into(a, out);
      made->submit_into(b, out + bytes);
      const FrameBlock first = made->finish();
      const FrameBlock second = made->finish();
      if (propagation == Propagation::mft) {
        EXPECT_EQ(first.data, out);
        EXPECT_EQ(second.data, out + bytes);
      }
      EXPECT_TRUE(first.finite);
      EXPECT_TRUE(second.finite);
      EXPECT_EQ(bytes_of(first, made->plan()), a_bytes) << "round " << round;
      EXPECT_EQ(bytes_of(second, made->plan()), b_bytes) << "round " << round;
    }
    made.reset();
    std::fill_n(out, 2 * bytes, static_cast<unsigned char>(0));
    pinned.reset();
  }
}

// Poisons the buffer the call after next writes into: every element must come back finite
// and equal to the first result. Shapes cover a direct host write (small output), copies
// after a graph timed as a whole, and copies after timed stages on the GPU.
TEST_P(BackendContract, EveryOutputElementIsRewritten) {
  for (const Case& c : {make_case(40, 81, Grid::linspace, Normalization::sum, 31, 0.2, {}),
                        make_case(200, 448, Grid::centered, Normalization::sum, 0, 0.2, {}),
                        make_case(256, 512, Grid::centered, Normalization::sum, 0, 0.2, {})}) {
    SCOPED_TRACE(describe(c));
    const auto b = make(c, 5);
    const auto phases = compile_all({mixed(), seidel({{2, 0, 1.5}}), seidel({}),
                                     seidel({{2, 1, -0.7}}), Aberration{{}, {{5, 0.3}}}});
    const FrameBlock first = b->compute(phases);
    const auto reference = bytes_of(first, b->plan());
    const std::size_t n = first.frames * b->plan().frame_elements();
    if (precision() == Precision::single)
      std::fill_n(static_cast<float*>(const_cast<void*>(first.data)), n,
                  std::numeric_limits<float>::quiet_NaN());
    else
      std::fill_n(static_cast<double*>(const_cast<void*>(first.data)), n,
                  std::numeric_limits<double>::quiet_NaN());
    // Until a call lands in the poisoned buffer again: two or three calls on, by backend.
    FrameBlock third = b->compute(phases);
    for (int call = 0; call < 3 && third.data != first.data; ++call) third = b->compute(phases);
    ASSERT_EQ(third.data, first.data);
    EXPECT_EQ(bytes_of(third, b->plan()), reference);
    const std::vector<double> values = widen(third, b->plan());
    for (std::size_t f = 0; f < third.frames; ++f) {
      double sum = 0.0;
      for (std::size_t i = 0; i < b->plan().frame_elements(); ++i)
        sum += values[f * b->plan().frame_elements() + i];
      EXPECT_NEAR(sum, 1.0, 1e-5) << "frame " << f;  // NaN anywhere fails here
    }
  }
}

// lend_block: a lent block keeps its bytes through later calls (which go elsewhere) and after
// the backend is gone; at most two are lent at once; two calls in flight while two are lent
// still compute right (the backend takes fresh memory); a block let go is lent again. A
// backend that cannot lend (a host's) says so with null. Host frames and frames kept on the
// device alike.
TEST_P(BackendContract, LentBlocksStayTheCallersUntilLetGo) {
  const TwoCalls calls;
  const BackendEntry& entry = *builtin_backends().find(backend());
  for (const bool on_device : {false, true}) {
    SCOPED_TRACE(on_device ? "frames on the device" : "host frames");
    PsfPlan plan =
        plan_for(make_case(32, 64, Grid::centered, Normalization::sum, 0, 0.0, {}), precision(), 5);
    plan.frames_on_device = on_device && entry.site == ComputeSite::device;
    auto b = entry.create(plan);
    const Backend::MemoryCopy copy = b->memory_copy();
    const auto host_bytes = [&](const void* data, std::size_t frames) {
      std::vector<unsigned char> v(frames * plan.frame_bytes());
      copy(v.data(), data, v.size(), plan.device);
      return v;
    };
    const auto full = host_bytes(b->compute(calls.full).data, 5);
    const auto part = host_bytes(b->compute(calls.part).data, 2);

    const FrameBlock first = b->compute(calls.full);
    std::shared_ptr<const void> kept_full = b->lend_block();
    if (entry.site != ComputeSite::device) {
      EXPECT_EQ(kept_full, nullptr);
      continue;
    }
    ASSERT_NE(kept_full, nullptr);
    EXPECT_EQ(kept_full.get(), first.data);
    EXPECT_EQ(b->lend_block(), nullptr) << "a block lent twice";
    (void)b->compute(calls.part);
    std::shared_ptr<const void> kept_part = b->lend_block();
    ASSERT_NE(kept_part, nullptr);
    for (int call = 0; call < 4; ++call) {
      const FrameBlock later = b->compute(calls.full);
      EXPECT_NE(later.data, kept_full.get());
      EXPECT_NE(later.data, kept_part.get());
      EXPECT_EQ(host_bytes(later.data, 5), full);
      EXPECT_EQ(b->lend_block(), nullptr) << "a third block lent";
    }
    // Two calls in flight with two blocks lent.
    b->submit(calls.part);
    b->submit(calls.full);
    const FrameBlock a = b->finish();
    const FrameBlock c = b->finish();
    EXPECT_EQ(host_bytes(a.data, 2), part);
    EXPECT_EQ(host_bytes(c.data, 5), full);
    for (const void* data : {a.data, c.data}) {
      EXPECT_NE(data, kept_full.get());
      EXPECT_NE(data, kept_part.get());
    }
    kept_part.reset();
    (void)b->compute(calls.part);
    kept_part = b->lend_block();
    ASSERT_NE(kept_part, nullptr) << "a block let go is not lent again";
    b.reset();
    EXPECT_EQ(host_bytes(kept_full.get(), 5), full);
    EXPECT_EQ(host_bytes(kept_part.get(), 2), part);
  }
}

// PsfPlan::untimed: the same frames, bit for bit, through the FFT and the MFT; a device then
// reports no stage times (no events were recorded), and every block still its total.
TEST_P(BackendContract, UntimedCallsGiveTheSameFrames) {
  const TwoCalls calls;
  const BackendEntry& entry = *builtin_backends().find(backend());
  for (const Propagation propagation : {Propagation::fft, Propagation::mft}) {
    SCOPED_TRACE(propagation == Propagation::mft ? "mft" : "fft");
    PsfPlan plan = plan_for(make_case(32, 64, Grid::centered, Normalization::sum, 48, 0.1, {}),
                            precision(), 5);
    plan.propagation = propagation;
    const auto timed = entry.create(plan);
    plan.untimed = true;
    const auto untimed = entry.create(plan);
    for (int call = 0; call < 4; ++call) {  // every slot, and a graph replayed
      const FrameBlock a = timed->compute(calls.full);
      const auto expected = bytes_of(a, timed->plan());
      const FrameBlock b = untimed->compute(calls.full);
      EXPECT_EQ(bytes_of(b, untimed->plan()), expected);
      EXPECT_GT(b.times.total, 0.0);
      if (entry.site == ComputeSite::device) {
        EXPECT_TRUE(b.times.stages.empty());
      }
    }
  }
}

// FrameBlock::finite: a block marked finite holds only finite values, a frame of NaN (a NaN
// coefficient) unmarks its block, and the next call's block is marked again. A device writing
// host frames must mark them (its kernels flag what they write), through the FFT and the MFT,
// each normalization, written straight to host memory or (timed by stage) copied there.
TEST_P(BackendContract, FiniteMarkHoldsForWhatTheBlockHolds) {
  const BackendEntry& entry = *builtin_backends().find(backend());
  const bool must_mark = entry.site == ComputeSite::device;
  const auto nan = std::numeric_limits<double>::quiet_NaN();
  for (const Propagation propagation : {Propagation::fft, Propagation::mft}) {
    for (const Case& c : {make_case(40, 81, Grid::linspace, Normalization::sum, 31, 0.2, {}),
                          make_case(32, 64, Grid::centered, Normalization::peak, 0, 0.0, {}),
                          make_case(48, 96, Grid::centered, Normalization::none, 0, 0.2, {})}) {
      const bool copied = c.normalization == Normalization::none;
      SCOPED_TRACE(describe(c) + (propagation == Propagation::mft ? " mft" : " fft") +
                   (copied ? " copied" : ""));
      PsfPlan plan = plan_for(c, precision(), 3);
      plan.propagation = propagation;
      plan.stage_timing = copied;
      const auto b = entry.create(plan);
      const auto all_finite = [&](const FrameBlock& block) {
        const std::vector<double> v = widen(block, b->plan());
        return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
      };
      const auto good = compile_all({mixed(), seidel({{2, 0, 1.5}}), seidel({})});
      const FrameBlock first = b->compute(good);
      EXPECT_TRUE(all_finite(first));
      EXPECT_EQ(first.finite, must_mark);

      const auto bad = compile_all({mixed(), seidel({{2, 0, nan}})});
      const FrameBlock poisoned = b->compute(bad);
      EXPECT_FALSE(all_finite(poisoned));
      EXPECT_FALSE(poisoned.finite);

      const FrameBlock after = b->compute(good);
      EXPECT_TRUE(all_finite(after));
      EXPECT_EQ(after.finite, must_mark);
    }
  }
}

TEST_P(BackendContract, RefusesMoreFramesThanThePlanHoldsAsBadInput) {
  const auto b = make(make_case(16, 32, Grid::centered, Normalization::peak, 0, 0.0, {}), 2);
  const auto three = compile_all({seidel({}), seidel({}), seidel({})});
  try {
    (void)b->compute(three);
    FAIL() << "3 frames accepted by a plan of 2";
  } catch (const InputError& e) {
    EXPECT_EQ(e.code(), ExitCode::bad_input);
    EXPECT_NE(std::string(e.what()).find("3 frames given, the plan holds 1 to 2"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)b->compute({}), InputError);
}

TEST_P(BackendContract, RefusesAnApertureWithoutSamples) {
  RunSpec spec = spec_for(
      backend(), make_case(2, 4, Grid::linspace, Normalization::peak, 0, 0.0, {}), precision());
  try {
    PsfRun run(spec, builtin_backends());
    FAIL() << "a zero aperture was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    for (const char* option : {"--samples 2", "--grid linspace", "--obscuration"})
      EXPECT_NE(what.find(option), std::string::npos) << what;
  }
  // An obscuration that covers every sample inside the rim (rho = 0.47 for N = 3).
  spec = spec_for(backend(), make_case(3, 8, Grid::centered, Normalization::peak, 0, 0.9, {}),
                  precision());
  EXPECT_THROW(PsfRun(spec, builtin_backends()), InputError);
}

INSTANTIATE_TEST_SUITE_P(Compiled, BackendContract,
                         ::testing::Combine(::testing::ValuesIn(compiled_backends()),
                                            ::testing::Values(Precision::single,
                                                              Precision::double_)),
                         [](const auto& info) { return backend_and_precision(info); });

}  // namespace
}  // namespace psfsim::test

// A mask of several passes runs them side by side on lanes of their own for pieces of at
// most side_by_side_frames frames, and one after another on the backend's stream for larger
// ones (cuda/src/train_stage.hpp). Both must give the CPU backend's frames: in one graph, in
// the graph replayed over several calls, and issued directly (--stage-timing).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "psfsim/aberration_polynomial.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/run_plan.hpp"
#include "../test_support.hpp"
#include "train_stage.hpp"

namespace psfsim::test {
namespace {

using cuda::side_by_side_frames;

constexpr int frames_in_all = 2 * side_by_side_frames + 4;

RunSpec train_spec(const FocalMask& mask, Precision precision, int n = 48,
                   Grid grid = Grid::centered) {
  Case c = make_case(n, 2 * n, grid, Normalization::peak, 40);
  RunSpec spec = spec_for("cuda", c, precision);
  spec.train.planes = {mask, PupilStop{0.95, 0.0, {}}};
  return spec;
}

FocalMask mask_of(FocalMask::Kind kind, int charge, double radius) {
  FocalMask m;
  m.kind = kind;
  m.charge = charge;
  m.radius = radius;
  return m;
}

// Frame f: a defocus and a coma of their own, so that every frame differs.
std::vector<AberrationPolynomial> phases() {
  std::vector<AberrationPolynomial> out;
  for (int f = 0; f < frames_in_all; ++f) {
    Aberration terms;
    terms.zernike = {{4, 0.01 * (f - 10)}, {7, 0.03 - 0.002 * f}};
    out.push_back(compile_phase(terms, required_degree(terms)));
  }
  return out;
}

// Every frame of `phases`, in calls of `per_call` frames to one backend of `plan`.
std::vector<double> computed(const std::string& backend, PsfPlan plan,
                             const std::vector<AberrationPolynomial>& phases, int per_call) {
  plan.max_batch = per_call;
  auto b = builtin_backends().find(backend)->create(plan);
  std::vector<double> all;
  for (std::size_t first = 0; first < phases.size(); first += per_call) {
    const std::vector<AberrationPolynomial> call(
        phases.begin() + static_cast<long>(first),
        phases.begin() + static_cast<long>(std::min(phases.size(), first + per_call)));
    const std::vector<double> frames = widen(b->compute(call), plan);
    all.insert(all.end(), frames.begin(), frames.end());
  }
  return all;
}

class CudaTrainLanes : public ::testing::TestWithParam<Precision> {};

TEST_P(CudaTrainLanes, SideBySideAndInTurnGiveTheCpusFrames) {
  SKIP_WITHOUT_CUDA();
  const Precision precision = GetParam();
  const std::vector<AberrationPolynomial> p = phases();
  struct Mask {
    std::string name;
    FocalMask mask;
  };
  // A 4 lambda/D spot at Q = 16: its 127-point pass and the rim's 3 x 3.
  for (const Mask& m : {Mask{"vortex6", mask_of(FocalMask::Kind::vortex, 6, 0.0)},
                        Mask{"fqpm", mask_of(FocalMask::Kind::four_quadrant, 0, 0.0)},
                        Mask{"lyot4", mask_of(FocalMask::Kind::spot, 0, 4.0)}}) {
    const PsfPlan plan = make_plan(train_spec(m.mask, precision), 1);
    ASSERT_GT(plan.train->channels.front().steps.front().passes.size(), 1u) << m.name;
    const std::vector<double> cpu = computed("cpu", plan, p, frames_in_all);
    struct Way {
      std::string name;
      int per_call;
      bool staged;
    };
    for (const Way& w : {Way{"in turn, one call", frames_in_all, false},
                         Way{"side by side, graph replayed", side_by_side_frames / 4, false},
                         Way{"side by side, one frame a call", 1, false},
                         Way{"side by side, issued directly", side_by_side_frames, true}}) {
      PsfPlan staged = plan;
      staged.stage_timing = w.staged;
      const std::vector<double> gpu = computed("cuda", staged, p, w.per_call);
      EXPECT_LE(relative_l2(gpu, cpu), backend_tolerance(precision)) << m.name << ", " << w.name;
    }
  }
}

// In turn, a spot's passes run folded by the grids' symmetry (psfsim/cuda/folded_pass.hpp):
// on an odd grid the middle row and column stand alone. Calls of 36 frames, then of 20 and 16.
TEST_P(CudaTrainLanes, FoldedSpotPassesOnOddAndEvenGrids) {
  SKIP_WITHOUT_CUDA();
  const Precision precision = GetParam();
  const std::vector<AberrationPolynomial> p = phases();
  for (const auto& [n, grid] : {std::pair{47, Grid::linspace}, std::pair{47, Grid::centered},
                                std::pair{50, Grid::linspace}}) {
    const PsfPlan plan =
        make_plan(train_spec(mask_of(FocalMask::Kind::spot, 0, 3.0), precision, n, grid), 1);
    const std::vector<double> cpu = computed("cpu", plan, p, frames_in_all);
    for (const int per_call : {frames_in_all, side_by_side_frames + 4}) {
      const std::vector<double> gpu = computed("cuda", plan, p, per_call);
      EXPECT_LE(relative_l2(gpu, cpu), backend_tolerance(precision))
          << "N " << n << ", " << to_string(grid) << ", calls of " << per_call;
    }
  }
}

// On an odd grid a whole-plane mask's whole-period pass does not fold (FoldedPass): in calls of
// more than side_by_side_frames frames it runs by FFTs into the share, beside its mask's folded
// passes, and the unfolding adds the two.
TEST_P(CudaTrainLanes, FoldedPassesBesideAnFftPassOnAnOddGrid) {
  SKIP_WITHOUT_CUDA();
  const Precision precision = GetParam();
  const std::vector<AberrationPolynomial> p = phases();
  for (const auto& [name, mask] :
       {std::pair{"vortex4", mask_of(FocalMask::Kind::vortex, 4, 0.0)},
        std::pair{"fqpm", mask_of(FocalMask::Kind::four_quadrant, 0, 0.0)}}) {
    const PsfPlan plan = make_plan(train_spec(mask, precision, 47), 1);
    const std::vector<MaskPass>& passes = plan.train->channels.front().steps.front().passes;
    ASSERT_TRUE(std::any_of(passes.begin(), passes.end(), [](const MaskPass& pass) {
      return pass.periodic();
    })) << name;
    const std::vector<double> cpu = computed("cpu", plan, p, frames_in_all);
    for (const int per_call : {frames_in_all, side_by_side_frames + 4}) {
      const std::vector<double> gpu = computed("cuda", plan, p, per_call);
      EXPECT_LE(relative_l2(gpu, cpu), backend_tolerance(precision))
          << name << ", calls of " << per_call;
    }
  }
}

// Where a whole-plane mask's period has a power-of-two m (4N: N = 32, 64, 128), its
// whole-period pass transforms only the padded field's live rows and one kernel its columns
// (cuda/src/periodic_pass_kernel.hpp): unfolded beside the folded passes in calls of more
// than side_by_side_frames frames, on its lane in smaller ones. m = 512 raises the kernel's
// shared memory.
TEST_P(CudaTrainLanes, PeriodicPassSkippingThePaddingGivesTheCpusFrames) {
  SKIP_WITHOUT_CUDA();
  const Precision precision = GetParam();
  const std::vector<AberrationPolynomial> p = phases();
  for (const int n : {32, 64, 128}) {
    for (const auto& [name, mask] :
         {std::pair{"vortex6", mask_of(FocalMask::Kind::vortex, 6, 0.0)},
          std::pair{"fqpm", mask_of(FocalMask::Kind::four_quadrant, 0, 0.0)}}) {
      const PsfPlan plan = make_plan(train_spec(mask, precision, n), 1);
      const MaskPass& first = plan.train->channels.front().steps.front().passes.front();
      ASSERT_TRUE(first.periodic()) << name;
      ASSERT_EQ(first.points, 4 * n) << name;
      const std::vector<double> cpu = computed("cpu", plan, p, frames_in_all);
      for (const int per_call : {frames_in_all, 1}) {
        const std::vector<double> gpu = computed("cuda", plan, p, per_call);
        EXPECT_LE(relative_l2(gpu, cpu), backend_tolerance(precision))
            << name << ", N " << n << ", calls of " << per_call;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Precisions, CudaTrainLanes,
                         ::testing::Values(Precision::single, Precision::double_),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace psfsim::test

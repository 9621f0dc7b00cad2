// PsfRun's calls in flight: where a backend copies all it needs of the phases at submit(),
// the run compiles the chunk after next while the call runs (into the buffer of the call it
// is about to finish). A stand-in that copies the phases at submit and computes them with
// the CPU backend at finish must see every chunk's frames, in order, and give the frames the
// CPU backend gives alone, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "psfsim/builtin_backends.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/psf_run.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

class CopyingBackend final : public Backend {
 public:
  explicit CopyingBackend(const PsfPlan& plan)
      : inner_(builtin_backends().find("cpu")->create(plan)) {}
  [[nodiscard]] std::string name() const override { return "copying"; }
  [[nodiscard]] std::string device_name() const override { return "test double"; }
  [[nodiscard]] const PsfPlan& plan() const override { return inner_->plan(); }
  [[nodiscard]] bool copies_frames_at_submit() const override { return true; }
  [[nodiscard]] FrameBlock compute(std::span<const AberrationPolynomial> frames) override {
    submit(frames);
    return finish();
  }
  void submit(std::span<const AberrationPolynomial> frames) override {
    for (const AberrationPolynomial& f : frames) EXPECT_EQ(f.batch_index, next_index_++);
    pending_[submitted_++ % 2].assign(frames.begin(), frames.end());
  }
  [[nodiscard]] FrameBlock finish() override { return inner_->compute(pending_[finished_++ % 2]); }

 private:
  std::unique_ptr<Backend> inner_;
  std::vector<AberrationPolynomial> pending_[2];
  std::size_t submitted_ = 0;
  std::size_t finished_ = 0;
  long long next_index_ = 0;
};

BackendRegistry cpu_and_copying() {
  BackendRegistry r;
  r.add(*builtin_backends().find("cpu"));
  BackendEntry e;
  e.name = "copying";
  e.summary = "the CPU backend, the phases copied at submit";
  e.unusable_reason = [] { return std::string(); };
  e.create = [](const PsfPlan& plan) -> std::unique_ptr<Backend> {
    return std::make_unique<CopyingBackend>(plan);
  };
  e.describe = [] { return std::vector<std::string>{}; };
  r.add(e);
  return r;
}

TEST(RunPipeline, PhasesCompiledWhileTheCallRunsReachEveryCallInOrder) {
  const BackendRegistry registry = cpu_and_copying();
  RunSpec spec;
  spec.samples = 16;
  spec.chunk_frames = 3;  // 12 calls of 3 frames and a last of 1
  spec.wisdom = "none";   // FFTW's estimate plans: the two runs make the same plan
  spec.frames.clear();
  for (int f = 0; f < 37; ++f)
    spec.frames.push_back(Aberration{{{2, 0, 0.05 * f}}, {{7, 0.01 * (f % 5)}}});
  const auto run = [&](const std::string& backend, FrameCollector& frames) {
    RunSpec s = spec;
    s.backend = backend;
    PsfRun r(s, registry);
    (void)r.execute(frames);
  };
  FrameCollector copied, alone;
  run("copying", copied);
  run("cpu", alone);
  ASSERT_EQ(copied.frames(), 37u);
  ASSERT_EQ(alone.frames(), 37u);
  for (std::size_t f = 0; f < 37; ++f) {
    const auto a = copied.frame(f);
    const auto b = alone.frame(f);
    EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << "frame " << f;
  }
}

}  // namespace
}  // namespace psfsim::test

// PsfRun's calls in flight: where a backend copies all it needs of the phases at submit(),
// the run compiles the chunk after next while the call runs (into the buffer of the call it
// is about to finish) and hands it to prepare_next() before it waits. A stand-in that copies
// the phases at submit and computes them with the CPU backend at finish must see every
// chunk's frames, in order, each submit given the very polynomials prepared for it, and give
// the frames the CPU backend gives alone, bit for bit: through execute() (a file) and
// compute() (the Python module's calls, which take a block with the next two calls queued).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "psfsim/builtin_backends.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/psf_run.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

class CopyingBackend final : public Backend {
 public:
  // `pins`: it offers host memory of its own (host_frame_memory) and puts a call's frames
  // there itself when given it (submit_into), as a device copies into pinned memory.
  explicit CopyingBackend(const PsfPlan& plan, bool pins = false)
      : inner_(builtin_backends().find("cpu")->create(plan)), pins_(pins) {}
  [[nodiscard]] std::string name() const override { return "copying"; }
  [[nodiscard]] std::string device_name() const override { return "test double"; }
  [[nodiscard]] const PsfPlan& plan() const override { return inner_->plan(); }
  [[nodiscard]] bool copies_frames_at_submit() const override { return true; }
  [[nodiscard]] FrameBlock compute(std::span<const AberrationPolynomial> frames) override {
    submit(frames);
    return finish();
  }
  void prepare_next(std::span<const AberrationPolynomial> frames) override {
    EXPECT_EQ(submitted_ - finished_, 2u) << "prepared with two calls pending";
    prepared_.assign(frames.begin(), frames.end());
    prepared_at_ = frames.data();
  }
  void submit(std::span<const AberrationPolynomial> frames) override {
    if (prepared_at_ != nullptr) {  // the very polynomials prepared, unchanged
      EXPECT_EQ(frames.data(), prepared_at_);
      ASSERT_EQ(frames.size(), prepared_.size());
      for (std::size_t f = 0; f < frames.size(); ++f) {
        EXPECT_EQ(frames[f].batch_index, prepared_[f].batch_index);
        EXPECT_EQ(frames[f].plain, prepared_[f].plain);
      }
      ++prepared_submits_;
      prepared_at_ = nullptr;
    }
    EXPECT_LT(submitted_ - finished_, 2u) << "at most two calls pending";
    for (const AberrationPolynomial& f : frames) EXPECT_EQ(f.batch_index, next_index_++);
    pending_[submitted_++ % 2].assign(frames.begin(), frames.end());
  }
  [[nodiscard]] std::shared_ptr<void> host_frame_memory(std::size_t bytes) const override {
    if (!pins_) return nullptr;
    std::shared_ptr<unsigned char[]> memory(new unsigned char[bytes]);
    pinned_.push_back({memory.get(), bytes});
    return memory;
  }
  void submit_into(std::span<const AberrationPolynomial> frames, void* frames_out) override {
    auto* const out = static_cast<unsigned char*>(frames_out);
    const std::size_t bytes = frames.size() * plan().frame_bytes();
    const bool pinned = std::any_of(pinned_.begin(), pinned_.end(), [&](const auto& block) {
      return out >= block.first && out + bytes <= block.first + block.second;
    });
    EXPECT_TRUE(pinned) << "a destination of host memory this backend did not give";
    destinations_[submitted_ % 2] = out;
    ++submits_into_;
    submit(frames);
  }
  [[nodiscard]] FrameBlock finish() override {
    EXPECT_GT(submitted_, finished_);
    unsigned char* const out = std::exchange(destinations_[finished_ % 2], nullptr);
    FrameBlock block = inner_->compute(pending_[finished_++ % 2]);
    if (out != nullptr) {
      std::memcpy(out, block.data, block.frames * plan().frame_bytes());
      block.data = out;
    }
    return block;
  }
  [[nodiscard]] std::size_t prepared_submits() const noexcept { return prepared_submits_; }
  [[nodiscard]] std::size_t submits_into() const noexcept { return submits_into_; }

 private:
  std::unique_ptr<Backend> inner_;
  bool pins_ = false;
  mutable std::vector<std::pair<unsigned char*, std::size_t>> pinned_;  // every block given
  std::array<unsigned char*, 2> destinations_{};  // of the calls pending, by submit
  std::size_t submits_into_ = 0;
  std::vector<AberrationPolynomial> prepared_;
  const AberrationPolynomial* prepared_at_ = nullptr;
  std::size_t prepared_submits_ = 0;
  std::vector<AberrationPolynomial> pending_[2];
  std::size_t submitted_ = 0;
  std::size_t finished_ = 0;
  long long next_index_ = 0;
};

BackendRegistry cpu_and_copying() {
  BackendRegistry r;
  r.add(*builtin_backends().find("cpu"));
  for (const bool pins : {false, true}) {
    BackendEntry e;
    e.name = pins ? "pinning" : "copying";
    e.summary = "the CPU backend, the phases copied at submit";
    e.site = ComputeSite::device;  // pipelined as a device's calls are
    e.unusable_reason = [] { return std::string(); };
    e.create = [pins](const PsfPlan& plan) -> std::unique_ptr<Backend> {
      return std::make_unique<CopyingBackend>(plan, pins);
    };
    e.describe = [] { return std::vector<std::string>{}; };
    r.add(e);
  }
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
    if (backend == "copying") {  // the calls after the first two, each prepared
      EXPECT_EQ(dynamic_cast<CopyingBackend&>(r.backend()).prepared_submits(), 11u);
    }
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

// PsfRun::compute's runs: calls of 3 frames at N = 16 (the plan made for them), and 22 frames,
// 7 calls of 3 and a last of 1.
RunSpec calls_of_three(const std::string& backend) {
  RunSpec spec;
  spec.backend = backend;
  spec.samples = 16;
  spec.chunk_frames = 3;
  spec.wisdom = "none";
  spec.frames.assign(3, Aberration{});
  return spec;
}
std::vector<Aberration> twenty_two_frames() {
  std::vector<Aberration> terms;
  for (int f = 0; f < 22; ++f)
    terms.push_back(Aberration{{{2, 0, 0.05 * f}}, {{7, 0.01 * (f % 5)}}});
  return terms;
}

TEST(RunPipeline, ComputeCallsQueueTwoWhileABlockIsTakenAndPrepareTheNext) {
  const BackendRegistry registry = cpu_and_copying();
  const std::vector<Aberration> terms = twenty_two_frames();
  const auto frames_of = [&](const std::string& backend) {
    PsfRun r(calls_of_three(backend), registry);
    std::vector<unsigned char> frames(terms.size() * r.backend().plan().frame_bytes());
    r.compute(terms, {frames.data(), false, nullptr}, nullptr, 0);
    if (backend == "copying") {  // the calls after the first two, each prepared
      EXPECT_EQ(dynamic_cast<CopyingBackend&>(r.backend()).prepared_submits(), 6u);
    }
    return frames;
  };
  EXPECT_EQ(frames_of("copying"), frames_of("cpu"));
}

// Frames the caller keeps (the Python module's new arrays), over several calls: in host memory
// the backend gave (host_frame_memory) where it has some, every call's frames put there by the
// call itself (submit_into) and the kept memory that very block; in plain memory otherwise.
// Either way the frames of the CPU backend alone, bit for bit.
TEST(RunPipeline, KeptFramesGoStraightIntoMemoryTheBackendPinned) {
  const BackendRegistry registry = cpu_and_copying();
  const std::vector<Aberration> terms = twenty_two_frames();
  const auto frames_of = [&](const std::string& backend) {
    PsfRun r(calls_of_three(backend), registry);
    const std::size_t bytes = terms.size() * r.backend().plan().frame_bytes();
    std::shared_ptr<const void> kept;
    r.compute(terms, {nullptr, false, &kept}, nullptr, 0);
    EXPECT_NE(kept, nullptr);
    if (backend != "cpu") {
      const auto& b = dynamic_cast<CopyingBackend&>(r.backend());
      EXPECT_EQ(b.submits_into(), backend == "pinning" ? 8u : 0u) << backend;
    }
    const auto* const data = static_cast<const unsigned char*>(kept.get());
    return std::vector<unsigned char>(data, data + bytes);
  };
  const std::vector<unsigned char> alone = frames_of("cpu");
  EXPECT_EQ(frames_of("pinning"), alone);
  EXPECT_EQ(frames_of("copying"), alone);
}

}  // namespace
}  // namespace psfsim::test

// PsfRun when things go wrong inside it: a backend that returns a NaN or an infinity, or a
// sink that fails, stops the run with a RuntimeFailure (exit 3) that names the frame or the
// file, and the HDF5 file never appears. A scripted backend stands in for a broken one.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>

#include "psfsim/errors.hpp"
#include "psfsim/frame_collector.hpp"
#include "psfsim/psf_file_writer.hpp"
#include "psfsim/psf_run.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

// Frames of ones, except one value of `poison` in frame `bad_frame` of the batch.
class ScriptedBackend final : public Backend {
 public:
  ScriptedBackend(const PsfPlan& plan, std::size_t bad_frame, float poison)
      : plan_(plan), bad_frame_(bad_frame), poison_(poison) {}
  [[nodiscard]] std::string name() const override { return "scripted"; }
  [[nodiscard]] std::string device_name() const override { return "test double"; }
  [[nodiscard]] const PsfPlan& plan() const override { return plan_; }
  [[nodiscard]] FrameBlock compute(std::span<const AberrationPolynomial> frames) override {
    std::vector<float>& out = buffers_[next_ ^= 1];
    out.assign(frames.size() * plan_.frame_elements(), 1.0f);
    if (bad_frame_ >= done_ && bad_frame_ < done_ + frames.size())
      out[(bad_frame_ - done_) * plan_.frame_elements() + 7] = poison_;
    done_ += frames.size();
    FrameBlock block;
    block.data = out.data();
    block.frames = frames.size();
    block.times.total = 1e-6;
    return block;
  }

 private:
  PsfPlan plan_;
  std::size_t bad_frame_;
  float poison_;
  std::size_t done_ = 0;
  std::vector<float> buffers_[2];
  int next_ = 0;
};

BackendRegistry scripted(std::size_t bad_frame, float poison) {
  BackendRegistry r;
  BackendEntry e;
  e.name = "scripted";
  e.summary = "frames of ones with one poisoned value";
  e.unusable_reason = [] { return std::string(); };
  e.create = [=](const PsfPlan& plan) -> std::unique_ptr<Backend> {
    return std::make_unique<ScriptedBackend>(plan, bad_frame, poison);
  };
  e.describe = [] { return std::vector<std::string>{}; };
  r.add(e);
  return r;
}

RunSpec five_frames(const std::string& out) {
  RunSpec s;
  s.backend = "scripted";
  s.samples = 16;
  s.frames = std::vector<Aberration>(5);
  s.chunk_frames = 2;
  s.output = out;
  return s;
}

// Whichever way the file writer would store the block (uncompressed: copied into the file's
// pages, on four threads from 16 MiB a block, as in the 8192-frame case; compressed: through
// HDF5), the frame is named and the file never appears.
TEST(RunFailure, NonFiniteFrameIsNamedAndNothingIsWritten) {
  struct Case {
    std::size_t frames, bad_frame;
    std::string compression;
  };
  for (const Case& c : {Case{5, 3, "none"}, Case{5, 3, "deflate"}, Case{8192, 6001, "none"}})
    for (const float poison :
         {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
      SCOPED_TRACE(std::to_string(c.frames) + " frames, " + c.compression);
      const std::string dir = temp_dir() + "/non-finite-" + std::to_string(std::isnan(poison));
      fs::create_directories(dir);
      const std::string out = dir + "/x.h5";
      const BackendRegistry registry = scripted(c.bad_frame, poison);
      RunSpec spec = five_frames(out);
      spec.frames = std::vector<Aberration>(c.frames);
      spec.chunk_frames = c.frames > 5 ? static_cast<int>(c.frames) : 2;
      spec.compression = c.compression;
      try {
        PsfFileWriter file(out, true, "test");
        PsfRun run(spec, registry);
        (void)run.execute(file);
        FAIL() << "a frame with " << poison << " was written";
      } catch (const RuntimeFailure& e) {
        EXPECT_NE(std::string(e.what()).find("frame " + std::to_string(c.bad_frame) +
                                             " holds a non-finite value (scripted backend"),
                  std::string::npos)
            << e.what();
      }
      EXPECT_TRUE(fs::is_empty(dir)) << "the file or its partial was left in " << dir;
    }
}

// Frames kept in memory are checked as well.
TEST(RunFailure, NonFiniteFrameIsFoundForAnySink) {
  const BackendRegistry registry = scripted(3, std::numeric_limits<float>::quiet_NaN());
  PsfRun run(five_frames("unused.h5"), registry);
  FrameCollector frames;
  try {
    (void)run.execute(frames);
    FAIL() << "a NaN frame reached the sink unchecked";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("frame 3 holds a non-finite value"), std::string::npos)
        << e.what();
  }
}

TEST(RunFailure, FiniteFramesPassTheCheck) {
  const BackendRegistry registry = scripted(99, 0.5f);  // no frame poisoned
  PsfRun run(five_frames("unused.h5"), registry);
  FrameCollector frames;
  (void)run.execute(frames);
  EXPECT_EQ(frames.frames(), 5u);
}

// A sink that fails on its second write, as a full disk would.
class FailingSink final : public FrameSink {
 public:
  void open(const RunHeader&) override {}
  void write_frames(std::size_t first, std::size_t, const void*) override {
    if (first > 0) throw RuntimeFailure("sink.h5: cannot write: No space left on device");
  }
  void close(TimingLog&) override { closed = true; }
  bool closed = false;
};

TEST(RunFailure, SinkFailureStopsTheRunWithoutClosingTheSink) {
  const BackendRegistry registry = scripted(99, 0.5f);
  PsfRun run(five_frames("unused.h5"), registry);
  FailingSink sink;
  EXPECT_THROW((void)run.execute(sink), RuntimeFailure);
  EXPECT_FALSE(sink.closed);
}

}  // namespace
}  // namespace psfsim::test

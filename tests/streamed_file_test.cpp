// A batch streamed to the file in chunks keeps its frame order and per-frame parameters:
// read back in C++ (no Python needed), each stored frame equals its frame computed alone.
#include <gtest/gtest.h>

#include <filesystem>

#include "h5_snapshot.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/builtin_backends.hpp"
#include "psfsim/psf_file_writer.hpp"
#include "psfsim/psf_run.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

Case shape() {
  Case c;
  c.samples = 24;
  c.padded = 48;
  c.crop = 21;
  c.normalization = Normalization::sum;
  return c;
}

const std::string common =
    "run --backend cpu --samples 24 --pad-factor 2 --crop 21 --normalize sum --precision double "
    "--seidel 2,1,0.3 --chunk-frames 2 --quiet";

void expect_frames_in_order(const H5Snapshot& file, const std::vector<Aberration>& frames) {
  const std::vector<double>& psf = file.datasets.at("/psf");
  ASSERT_EQ(file.shapes.at("/psf"), (std::vector<unsigned long long>{frames.size(), 21, 21}));
  const std::size_t per_frame = 21 * 21;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const std::vector<double> alone =
        compute_frames("cpu", shape(), {frames[f]}, Precision::double_).front();
    const std::vector<double> stored(psf.begin() + f * per_frame,
                                     psf.begin() + (f + 1) * per_frame);
    EXPECT_LE(relative_l2(stored, alone), batching_tolerance(Precision::double_)) << "frame " << f;
  }
}

TEST(StreamedFile, VaryKeepsFrameOrderAndParameters) {
  const std::string out = temp_dir() + "/streamed-vary.h5";
  const auto r = run_psfsim(common + " --vary Z4,-1,1,7 -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const H5Snapshot file = read_h5(out);
  const std::vector<double>& z4 = file.datasets.at("/parameters/Z4");
  ASSERT_EQ(z4.size(), 7u);
  for (std::size_t f = 0; f < 7; ++f) EXPECT_DOUBLE_EQ(z4[f], -1.0 + f / 3.0) << "frame " << f;
  const std::vector<double>& tilt = file.datasets.at("/parameters/S2_1");
  EXPECT_EQ(tilt, std::vector<double>(7, 0.3));
  expect_frames_in_order(file, expand(Aberration{{{2, 1, 0.3}}, {}}, parse_vary("Z4,-1,1,7")));
}

TEST(StreamedFile, RandomDrawsKeepFrameOrderAndParameters) {
  const std::string out = temp_dir() + "/streamed-random.h5";
  const auto r = run_psfsim(common + " --random 4-8,0.2,5,11 -o " + out);
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  const H5Snapshot file = read_h5(out);
  const auto frames = expand(Aberration{{{2, 1, 0.3}}, {}}, parse_random("4-8,0.2,5,11"));
  for (int j = 4; j <= 8; ++j) {
    const std::vector<double>& stored = file.datasets.at("/parameters/Z" + std::to_string(j));
    ASSERT_EQ(stored.size(), frames.size());
    for (std::size_t f = 0; f < frames.size(); ++f) {
      double expected = 0.0;
      for (const auto& t : frames[f].zernike)
        if (t.j == j) expected += t.waves;
      EXPECT_DOUBLE_EQ(stored[f], expected) << "Z" << j << " frame " << f;
    }
  }
  expect_frames_in_order(file, frames);
}

// --random's frames, drawn as the run reaches them (three frames a chunk, two repeats: the
// second goes back to the stream's start), compute what the same frames held do, bit for bit.
TEST(StreamedFile, DrawnFramesComputeAsTheHeldOnes) {
  RunSpec held = spec_for("cpu", shape(), Precision::double_);
  held.chunk_frames = 3;
  held.repeat = 2;
  const RandomSpec random = parse_random("4-10,0.2,8,5");
  held.frames = expand(Aberration{}, random);
  RunSpec drawn = held;
  drawn.frames.clear();
  drawn.drawn = RandomAberrations{Aberration{}, random};
  ASSERT_EQ(batch_size(drawn), 8u);
  EXPECT_EQ(run_spec_frames(drawn), run_spec_frames(held));
}

// /parameters is written chunk by chunk with the frames: frames that name different terms
// (through the library; the options give every frame the same ones) get zeros for the terms
// they lack, repeated terms add up, and chunks of 3 cross the frames where the terms change.
TEST(StreamedFile, ParametersOfFramesWithDifferentTermsAreWrittenChunkByChunk) {
  const std::string out = temp_dir() + "/streamed-parameters.h5";
  RunSpec spec = spec_for("cpu", shape(), Precision::double_);
  spec.output = out;
  spec.force = true;
  spec.chunk_frames = 3;
  spec.frames = {Aberration{{}, {{4, 0.1}}},
                 Aberration{{{2, 1, 0.3}}, {{4, 0.1}, {4, 0.2}}},
                 Aberration{},
                 Aberration{{}, {{11, -0.5}, {4, 0.25}}},
                 Aberration{{}, {{11, -0.5}, {4, 0.25}}},
                 Aberration{{{2, 1, -0.1}}, {}},
                 Aberration{{}, {{4, 0.7}}}};
  {
    PsfFileWriter file(out, true, "psfsim (test)");
    PsfRun run(spec, builtin_backends());
    (void)run.execute(file);
  }
  const H5Snapshot file = read_h5(out);
  EXPECT_EQ(file.datasets.at("/parameters/Z4"),
            (std::vector<double>{0.1, 0.1 + 0.2, 0.0, 0.25, 0.25, 0.0, 0.7}));
  EXPECT_EQ(file.datasets.at("/parameters/Z11"),
            (std::vector<double>{0.0, 0.0, 0.0, -0.5, -0.5, 0.0, 0.0}));
  EXPECT_EQ(file.datasets.at("/parameters/S2_1"),
            (std::vector<double>{0.0, 0.3, 0.0, 0.0, 0.0, -0.1, 0.0}));
  std::size_t columns = 0;
  for (const auto& [name, values] : file.datasets) columns += name.starts_with("/parameters/");
  EXPECT_EQ(columns, 3u);
}

}  // namespace
}  // namespace psfsim::test

// The pieces of `mpirun -n R psfsim run` that need no MPI: how frames are shared among ranks,
// the rank files' names, and the output joined from per-rank files by virtual datasets,
// which must read as the single-process file. The runs under mpirun are
// tests/check_mpi_run.py's.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "h5_snapshot.hpp"
#include "psfsim/errors.hpp"
#include "psfsim/rank_files.hpp"
#include "psfsim/virtual_join.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

TEST(RankFrames, ContiguousBlocksTheFirstRanksOneLarger) {
  const std::size_t expected_first[3] = {0, 3, 5};
  const std::size_t expected_count[3] = {3, 2, 2};
  for (int r = 0; r < 3; ++r) {
    const FrameRange block = rank_frames(7, r, 3);
    EXPECT_EQ(block.first, expected_first[r]) << "rank " << r;
    EXPECT_EQ(block.count, expected_count[r]) << "rank " << r;
  }
  for (const int ranks : {1, 2, 5, 8}) {  // the blocks tile [0, B) in rank order
    std::size_t next = 0;
    for (int r = 0; r < ranks; ++r) {
      const FrameRange block = rank_frames(1000003, r, ranks);
      EXPECT_EQ(block.first, next);
      next += block.count;
    }
    EXPECT_EQ(next, 1000003u);
  }
}

TEST(RankFiles, BesideTheOutputNamedByRankAndCount) {
  EXPECT_EQ(rank_file_path("data/out.h5", 1, 3), fs::path("data/out.h5.rank-1-of-3.h5"));
  EXPECT_EQ(rank_file_path("out.h5", 0, 2), fs::path("out.h5.rank-0-of-2.h5"));
}

TEST(RankFiles, OnlyAnotherRankCountsFilesOfThisOutputAreRemoved) {
  const std::string dir = fresh_dir("other-rank-files");
  const std::vector<std::string> names{"out.h5",
                                       "out.h5.rank-0-of-2.h5",
                                       "out.h5.rank-1-of-2.h5",
                                       "out.h5.rank-0-of-3.h5",
                                       "other.h5.rank-0-of-3.h5",
                                       "out.h5.rank-x-of-3.h5",
                                       "out.h5.rank-0-of-3.h5.bak"};
  for (const std::string& n : names) std::ofstream(dir + "/" + n) << "x";
  remove_other_rank_files(dir + "/out.h5", 2);
  auto left = folder_entries(dir);
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"other.h5.rank-0-of-3.h5", "out.h5",
                                            "out.h5.rank-0-of-2.h5", "out.h5.rank-0-of-3.h5.bak",
                                            "out.h5.rank-1-of-2.h5", "out.h5.rank-x-of-3.h5"}));
  remove_other_rank_files(dir + "/out.h5", 0);
  left = folder_entries(dir);
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"other.h5.rank-0-of-3.h5", "out.h5",
                                            "out.h5.rank-0-of-3.h5.bak", "out.h5.rank-x-of-3.h5"}));
}

// A /metrics group as a part would hold it: per-frame `strehl` (B,) and `ee` (B, 2) with
// values from the global frame index, and `ee_radii` (2,), which is not per frame.
void add_metrics(const fs::path& part, std::size_t first, std::size_t count) {
  const hid_t file = H5Fopen(part.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const hid_t group = H5Gcreate2(file, "metrics", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const auto write = [&](const char* name, std::vector<hsize_t> dims,
                         const std::vector<double>& values) {
    const hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    const hid_t set =
        H5Dcreate2(group, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
    const hid_t scalar = H5Screate(H5S_SCALAR);
    const hid_t attr = H5Acreate2(set, "scale", H5T_IEEE_F64LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
    const double one = 1.0;
    H5Awrite(attr, H5T_NATIVE_DOUBLE, &one);
    H5Aclose(attr);
    H5Sclose(scalar);
    H5Dclose(set);
    H5Sclose(space);
  };
  std::vector<double> strehl, ee;
  for (std::size_t f = first; f < first + count; ++f) {
    strehl.push_back(f + 0.5);
    ee.insert(ee.end(), {f + 0.25, f + 0.75});
  }
  write("strehl", {count}, strehl);
  write("ee", {count, 2}, ee);
  write("ee_radii", {2}, {1.0, 2.0});
  H5Gclose(group);
  H5Fclose(file);
}

// Three parts written by three runs of psfsim over the blocks of one --frames table.
TEST(VirtualJoin, PartsReadAsTheSingleProcessFile) {
  const std::string dir = fresh_dir("virtual-join");
  const std::string header = "Z4,Z11,S2_1\n";
  const std::vector<std::string> rows{"0.1,0.02,0",  "-0.1,0.02,0.5", "0.3,0,0.1", "0,0,0",
                                      "0.2,-0.05,0", "0.05,0.1,0.2",  "-0.3,0,0"};
  const auto table = [&](std::size_t first, std::size_t count) {
    const std::string path = dir + "/frames-" + std::to_string(first) + ".csv";
    std::ofstream csv(path);
    csv << header;
    for (std::size_t f = first; f < first + count; ++f) csv << rows[f] << "\n";
    return path;
  };
  const std::string common = "run --backend cpu --samples 24 --crop 20 --quiet --precision double";
  const auto single = run_psfsim(common + " --frames " + table(0, 7) + " -o " + dir + "/one.h5");
  ASSERT_EQ(single.exit_code, 0) << single.stderr_text;
  std::vector<PartFile> parts;
  for (int r = 0; r < 3; ++r) {
    const FrameRange block = rank_frames(rows.size(), r, 3);
    const fs::path part = rank_file_path(dir + "/joined.h5", r, 3);
    const auto ran = run_psfsim(common + " --frames " + table(block.first, block.count) + " -o " +
                                part.string());
    ASSERT_EQ(ran.exit_code, 0) << ran.stderr_text;
    add_metrics(part, block.first, block.count);
    parts.push_back({part, block.count, {}});
  }
  join_part_files(dir + "/joined.h5", parts, "psfsim run ...", "[run]\n");

  const H5Snapshot one = read_h5(dir + "/one.h5");
  const H5Snapshot joined = read_h5(dir + "/joined.h5");
  EXPECT_TRUE(one.datasets.at("/psf") == joined.datasets.at("/psf")) << "/psf differs";
  EXPECT_EQ(one.shapes.at("/psf"), joined.shapes.at("/psf"));
  for (const auto& [name, values] : one.datasets) {
    if (name.rfind("/parameters/", 0) == 0 || name == "/frame" || name == "/x" || name == "/y") {
      EXPECT_EQ(values, joined.datasets.at(name)) << name;
    }
  }
  for (const auto& [name, text] : one.attributes) {
    if (name.rfind("/psf@", 0) == 0 || name.rfind("/parameters", 0) == 0) {
      EXPECT_EQ(text, joined.attributes.at(name)) << name;
    }
  }
  // /metrics joins for free: per-frame datasets concatenated, the others copied.
  std::vector<double> strehl, ee;
  for (std::size_t f = 0; f < rows.size(); ++f) {
    strehl.push_back(f + 0.5);
    ee.insert(ee.end(), {f + 0.25, f + 0.75});
  }
  EXPECT_EQ(joined.datasets.at("/metrics/strehl"), strehl);
  EXPECT_EQ(joined.datasets.at("/metrics/ee"), ee);
  EXPECT_EQ(joined.shapes.at("/metrics/ee"), (std::vector<unsigned long long>{7, 2}));
  EXPECT_EQ(joined.datasets.at("/metrics/ee_radii"), (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(joined.attributes.at("/metrics/ee@scale"), "1.000000");
  EXPECT_EQ(joined.attributes.at("/timings@ranks"), "3.000000");
  EXPECT_EQ(joined.attributes.at("/timings/rank_2@rank_first_frame"), "5.000000");
  EXPECT_EQ(joined.attributes.at("/@config"), "[run]\n");
  const auto entries = folder_entries(dir);
  EXPECT_EQ(std::count_if(entries.begin(), entries.end(),
                          [](const std::string& e) { return e.find(".partial-") != e.npos; }),
            0);
}

TEST(VirtualJoin, AMissingPartIsAnErrorNamingItAndLeavesNothing) {
  const std::string dir = fresh_dir("virtual-join-missing");
  const std::vector<PartFile> parts{{dir + "/out.h5.rank-0-of-1.h5", 1, {}}};
  try {
    join_part_files(dir + "/out.h5", parts, "", "");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::runtime_failure);
    EXPECT_NE(std::string(e.what()).find("out.h5.rank-0-of-1.h5"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(folder_entries(dir).empty());
}

}  // namespace
}  // namespace psfsim::test

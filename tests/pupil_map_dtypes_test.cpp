// The dtypes a pupil map may have (docs/spec.md §7, docs/cli.md): bool and integer masks, either
// byte order, Fortran order, integer HDF5 datasets and integer FITS images each read as the
// same values, and give the same PSF bit for bit, as the float64 C-order .npy file of those
// values. The maps are not symmetric under transposition, so a Fortran array read without
// its transposition would differ. Then the same from files NumPy, h5py and astropy wrote.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "map_writers.hpp"
#include "psfsim/pupil_maps.hpp"
#include "test_support.hpp"

namespace psfsim {
namespace {

using test::Dims;
using test::write_fits;
using test::write_h5;
using test::write_npy;

constexpr int n = 32;
const Dims square{n, n};

double coordinate(int i) { return (i - n / 2.0) * (2.0 / n); }  // docs/spec.md §1, centered

// An annulus (0.2 < r < 1) cut off left of x = -0.4, times `level(row, column)`.
template <typename Level>
std::vector<double> masked(Level level) {
  std::vector<double> v(static_cast<std::size_t>(n) * n, 0.0);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const double x = coordinate(c), y = coordinate(r), rho2 = x * x + y * y;
      if (rho2 > 0.04 && rho2 < 1.0 && x > -0.4)
        v[static_cast<std::size_t>(r) * n + c] = level(r, c);
    }
  return v;
}

RunSpec base_spec(Precision p) {
  RunSpec s =
      test::spec_for("cpu", test::make_case(n, 2 * n, Grid::centered, Normalization::peak), p);
  s.frames = {Aberration{{{2, 1, 0.7}}, {{4, 0.2}, {8, -0.1}}}};
  return s;
}

std::vector<std::vector<double>> frames_with(RunSpec s, const std::string& amplitude,
                                             const std::string& opd) {
  s.aperture.amplitude = amplitude;
  s.aperture.opd = opd;
  if (const std::size_t frames = pupil_map_frames(s.aperture); frames > 0)
    s.frames.assign(frames, s.frames[0]);
  return test::run_spec_frames(s);
}

struct Same {
  std::string file;       // the typed map
  std::string reference;  // the float64 C-order .npy file of the same values
  bool opd = false;       // a stack of OPD maps, not an amplitude map
};

// The values read and the PSFs (amplitude, or OPD stack) of `file` and its reference agree.
void expect_same(const std::string& dir, const std::vector<Same>& cases) {
  for (const Same& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string file = dir + "/" + c.file, reference = dir + "/" + c.reference;
    const PupilMap a = read_pupil_map(file, "--pupil-amplitude");
    const PupilMap b = read_pupil_map(reference, "--pupil-amplitude");
    EXPECT_EQ(a.frames, b.frames);
    EXPECT_EQ(a.values, b.values);
    for (const Precision p : {Precision::single, Precision::double_}) {
      const RunSpec s = base_spec(p);
      if (c.opd) EXPECT_EQ(frames_with(s, "", file), frames_with(s, "", reference));
      else EXPECT_EQ(frames_with(s, file, ""), frames_with(s, reference, ""));
    }
  }
}

TEST(PupilMapDtypes, IntegerBoolSwappedAndFortranMapsMatchTheFloat64File) {
  const std::string d = test::fresh_dir("map-dtypes");
  const auto mask = masked([](int, int) { return 1.0; });
  const auto levels = masked([](int r, int c) { return 1.0 + (r + 2 * c) % 3; });
  const auto graded =
      masked([](int r, int c) { return 0.25 + 0.5 * c / n + 0.2 * r * r / (n * n); });
  std::vector<double> stack;  // two OPD maps, in waves
  for (const double scale : {0.3, -0.2}) {
    const auto map =
        masked([&](int r, int c) { return scale * coordinate(c) * (1 + coordinate(r)); });
    stack.insert(stack.end(), map.begin(), map.end());
  }
  const Dims stacked{2, n, n};
  write_npy(d + "/mask.npy", square, mask);
  write_npy(d + "/levels.npy", square, levels);
  write_npy(d + "/graded.npy", square, graded);
  write_npy(d + "/graded32.npy", square, graded, "<f4");
  write_npy(d + "/stack.npy", stacked, stack);

  write_npy(d + "/mask_b1.npy", square, mask, "|b1");
  write_npy(d + "/mask_u1.npy", square, mask, "|u1");
  write_npy(d + "/mask_b1_fortran.npy", square, mask, "|b1", true);
  write_npy(d + "/levels_i1.npy", square, levels, "|i1");
  write_npy(d + "/levels_u1.npy", square, levels, "|u1");
  write_npy(d + "/levels_big_i2.npy", square, levels, ">i2");
  write_npy(d + "/levels_u2.npy", square, levels, "<u2");
  write_npy(d + "/levels_native_i4.npy", square, levels, "=i4");
  write_npy(d + "/levels_big_u4.npy", square, levels, ">u4");
  write_npy(d + "/levels_i8.npy", square, levels, "<i8");
  write_npy(d + "/levels_big_u8_fortran.npy", square, levels, ">u8", true);
  write_npy(d + "/graded_big.npy", square, graded, ">f8");
  write_npy(d + "/graded_fortran.npy", square, graded, "<f8", true);
  write_npy(d + "/graded_big_fortran.npy", square, graded, ">f8", true);
  write_npy(d + "/graded32_big_fortran.npy", square, graded, ">f4", true);
  write_npy(d + "/stack_fortran.npy", stacked, stack, "<f8", true);
  write_npy(d + "/stack_big_fortran.npy", stacked, stack, ">f8", true);
  write_h5(d + "/levels_i32.h5", "m", square, levels, H5T_STD_I32LE);
  write_h5(d + "/levels_big_u16.h5", "m", square, levels, H5T_STD_U16BE);
  write_h5(d + "/levels_u8.h5", "m", square, levels, H5T_STD_U8LE);
  write_fits(d + "/levels16.fits", square, levels, 16);
  write_fits(d + "/levels8.fits", square, levels, 8);
  write_fits(d + "/levels32.fits", square, levels, 32);
  write_fits(d + "/levels64.fits", square, levels, 64);
  std::vector<double> stored = levels;  // BZERO + BSCALE * stored are the levels, exactly
  for (double& v : stored) v = (v - 3) / 0.5;
  write_fits(d + "/levels_scaled16.fits", square, stored, 16, {{"BSCALE", "0.5"}, {"BZERO", "3"}});
  expect_same(d, {{"mask_b1.npy", "mask.npy"},
                  {"mask_u1.npy", "mask.npy"},
                  {"mask_b1_fortran.npy", "mask.npy"},
                  {"levels_i1.npy", "levels.npy"},
                  {"levels_u1.npy", "levels.npy"},
                  {"levels_big_i2.npy", "levels.npy"},
                  {"levels_u2.npy", "levels.npy"},
                  {"levels_native_i4.npy", "levels.npy"},
                  {"levels_big_u4.npy", "levels.npy"},
                  {"levels_i8.npy", "levels.npy"},
                  {"levels_big_u8_fortran.npy", "levels.npy"},
                  {"graded_big.npy", "graded.npy"},
                  {"graded_fortran.npy", "graded.npy"},
                  {"graded_big_fortran.npy", "graded.npy"},
                  {"graded32_big_fortran.npy", "graded32.npy"},
                  {"stack_fortran.npy", "stack.npy", true},
                  {"stack_big_fortran.npy", "stack.npy", true},
                  {"levels_i32.h5", "levels.npy"},
                  {"levels_big_u16.h5", "levels.npy"},
                  {"levels_u8.h5", "levels.npy"},
                  {"levels16.fits", "levels.npy"},
                  {"levels8.fits", "levels.npy"},
                  {"levels32.fits", "levels.npy"},
                  {"levels64.fits", "levels.npy"},
                  {"levels_scaled16.fits", "levels.npy"}});
}

// A stack's header alone gives its frames, in Fortran order too.
TEST(PupilMapDtypes, FortranStackHeaderGivesItsFrames) {
  const std::string d = test::fresh_dir("map-dtypes-header");
  write_npy(d + "/stack.npy", {3, n, n}, std::vector<double>(3 * n * n, 0.1), ">i2", true);
  const PupilMap m = read_pupil_map(d + "/stack.npy", "--pupil-opd", true);
  EXPECT_EQ(m.frames, 3u);
  EXPECT_EQ(m.rows, static_cast<std::size_t>(n));
  EXPECT_TRUE(m.values.empty());
}

TEST(PupilMapDtypes, WrittenByNumPyH5pyAndAstropyMatchTheFloat64File) {
  if (const std::string why = test::numpy_missing_reason(); !why.empty()) GTEST_SKIP() << why;
  const std::string d = test::fresh_dir("map-dtypes-numpy");
  const std::string script = std::string(PSFSIM_SOURCE_DIR) + "/tests/reference/typed_maps.py";
  const int status =
      std::system((std::string(PSFSIM_PYTHON_EXECUTABLE) + " " + script + " " + d).c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 77) GTEST_SKIP() << "astropy not importable by " << PSFSIM_PYTHON_EXECUTABLE;
  ASSERT_EQ(code, 0) << script;
  expect_same(d, {{"mask_bool.npy", "mask.npy"},
                  {"mask_bool_fortran.npy", "mask.npy"},
                  {"maps.h5:mask", "mask.npy"},
                  {"levels_uint8.npy", "levels.npy"},
                  {"levels_big_float64.npy", "levels.npy"},
                  {"levels_big_int16_fortran.npy", "levels.npy"},
                  {"maps.h5:levels", "levels.npy"},
                  {"maps.h5:levels_big", "levels.npy"},
                  {"levels16.fits", "levels.npy"},
                  {"levels8.fits", "levels.npy"},
                  {"levels_bzero.fits", "levels.npy"},
                  {"stack_fortran.npy", "stack.npy", true},
                  {"stack32.fits", "stack.npy", true}});
}

}  // namespace
}  // namespace psfsim

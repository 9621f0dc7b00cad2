// The field options from the outside (docs/field.md): runs of the psfsim binary whose frames
// sit in the field, checked against runs of fixed terms worked out by hand from the field
// models' definitions, against the definitions of the field grid, and for the exit 2 of a
// point outside a table's hull.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <string>
#include <vector>

#include "h5_snapshot.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

// N = 32, M = 64, double precision: two runs of one phase agree to ~1e-14 however the phase
// was assembled.
const std::string base = "run --backend cpu --precision double --quiet --force ";
constexpr double same_phase = 1e-12;  // relative L2 of two assemblies of one phase, double

H5Snapshot run_ok(const std::string& dir, const std::string& name, const std::string& args) {
  const std::string out = dir + "/" + name + ".h5";
  const std::string samples = args.find("--samples") == std::string::npos ? "--samples 32 " : "";
  const auto r = run_psfsim(base + samples + args + " -o " + out);
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.stderr_text;
  return read_h5(out);
}

std::string number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

TEST(FieldRun, OneByOneGridAtTheOriginEqualsTheOnAxisRunBitForBit) {
  const std::string dir = fresh_dir("field-1x1");
  const std::string terms = "--zernike 4,0.1 --zernike 8,0.05 --seidel 2,2,0.1 ";
  const H5Snapshot on_axis = run_ok(dir, "axis", terms);
  const H5Snapshot grid = run_ok(dir, "grid", terms + "--field-grid 1,1");
  EXPECT_EQ(grid.datasets.at("/psf"), on_axis.datasets.at("/psf"));
  EXPECT_EQ(grid.datasets.at("/parameters/field_x"), std::vector<double>{0.0});
  EXPECT_EQ(grid.datasets.at("/parameters/field_y"), std::vector<double>{0.0});
  // A field model whose every term vanishes on axis changes nothing there either.
  const H5Snapshot modelled =
      run_ok(dir, "model", terms + "--field-grid 1,1 --seidel-field 1,3,1,0.4");
  EXPECT_EQ(modelled.datasets.at("/psf"), on_axis.datasets.at("/psf"));
}

TEST(FieldRun, GridPointsSpanTheRadiusXFastestAndOnePointSitsAtZero) {
  const std::string dir = fresh_dir("field-grid");
  const H5Snapshot s = run_ok(dir, "g", "--crop 8 --field-grid 3,2,0.5");
  EXPECT_EQ(s.shapes.at("/psf")[0], 6u);
  EXPECT_EQ(s.datasets.at("/parameters/field_x"),
            (std::vector<double>{-0.5, 0.0, 0.5, -0.5, 0.0, 0.5}));
  EXPECT_EQ(s.datasets.at("/parameters/field_y"),
            (std::vector<double>{-0.5, -0.5, -0.5, 0.5, 0.5, 0.5}));
  EXPECT_EQ(s.datasets.at("/field_x"), s.datasets.at("/parameters/field_x"));
  EXPECT_EQ(s.attributes.at("/field_x@units"), "field radius");
  const H5Snapshot column = run_ok(dir, "c", "--crop 8 --field-grid 1,3");
  EXPECT_EQ(column.datasets.at("/parameters/field_x"), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_EQ(column.datasets.at("/parameters/field_y"), (std::vector<double>{-1.0, 0.0, 1.0}));
}

// W H^k rho^l cos^m(phi - theta_H) at a point on +x is the fixed Seidel term W H^k.
TEST(FieldRun, SeidelFieldTermOnTheXAxisIsTheFixedTermScaledByHPowerK) {
  const std::string dir = fresh_dir("field-seidel-x");
  for (const double h : {0.3, 0.7, 1.0}) {
    const H5Snapshot field = run_ok(
        dir, "f", "--seidel-field 2,2,2,0.25 --seidel-field 1,3,1,0.4 --field " + number(h) + ",0");
    const H5Snapshot fixed = run_ok(
        dir, "s", "--seidel 2,2," + number(0.25 * h * h) + " --seidel 3,1," + number(0.4 * h));
    EXPECT_LT(relative_l2(field.datasets.at("/psf"), fixed.datasets.at("/psf")), same_phase)
        << "H = " << h;
  }
}

// Off the x axis the term turns with the field point: coma at theta_H = 90 degrees is
// W H rho^3 sin(phi) = W H (Z7 / (3 sqrt 8) + Z3 / 3) in Noll's terms (Z3 = 2 rho sin phi).
TEST(FieldRun, SeidelComaPointsAlongTheFieldPoint) {
  const std::string dir = fresh_dir("field-seidel-y");
  const double w = 0.4, h = 0.5;
  const H5Snapshot field = run_ok(dir, "f", "--seidel-field 1,3,1,0.4 --field 0,0.5");
  const H5Snapshot zernike = run_ok(
      dir, "z",
      "--zernike 7," + number(w * h / (3 * std::sqrt(8.0))) + " --zernike 3," + number(w * h / 3));
  EXPECT_LT(relative_l2(field.datasets.at("/psf"), zernike.datasets.at("/psf")), 1e-10);
}

// A coma PSF's centroid, the mean wavefront slope, moves in proportion to H along theta_H:
// W H rho^3 cos(phi - theta_H) has a mean slope of W H waves per pupil radius, a shift of
// 2 W H lambda/D. The intensity centroid over a finite frame follows the mean slope to a few
// per cent; its direction and its proportion to H are held far tighter. The linspace grid is
// symmetric, so the on-axis frame's centroid is 0 and the shift is measured from it alike.
TEST(FieldRun, ComaCentroidShiftGrowsLinearlyAlongTheFieldDirection) {
  const std::string dir = fresh_dir("field-centroid");
  const double theta = std::numbers::pi / 6, w = 0.1;
  std::string csv = "field_x,field_y\n0,0\n";
  for (const double h : {0.25, 0.5, 0.75, 1.0})
    csv += number(h * std::cos(theta)) + "," + number(h * std::sin(theta)) + "\n";
  const std::string frames = write_text(dir + "/points.csv", csv);
  const std::string args = "--samples 64 --grid linspace --seidel-field 1,3,1," + number(w) +
                           " --metrics centroid --frames " + frames;
  const H5Snapshot s = run_ok(dir, "c", args);
  const auto& cx = s.datasets.at("/metrics/centroid_x");
  const auto& cy = s.datasets.at("/metrics/centroid_y");
  ASSERT_EQ(cx.size(), 5u);
  EXPECT_NEAR(cx[0], 0.0, 1e-12);
  EXPECT_NEAR(cy[0], 0.0, 1e-12);
  const double per_h = std::hypot(cx[1], cy[1]) / 0.25;
  EXPECT_NEAR(per_h, 2 * w, 0.05 * 2 * w);
  for (std::size_t f = 1; f < 5; ++f) {
    const double h = 0.25 * static_cast<double>(f);
    EXPECT_NEAR(std::atan2(cy[f], cx[f]), theta, 2e-3) << "frame " << f;
    EXPECT_NEAR(std::hypot(cx[f], cy[f]) / h, per_h, 5e-3 * per_h) << "frame " << f;
  }
}

// Z_2(H) = 2 H cos(theta_H) in Noll's normalization: at (0.5, 0), c Z_2 Z_4 is c Z_4.
TEST(FieldRun, DoubleZernikeAtAPointIsItsPupilZernikeScaledByTheFieldPolynomial) {
  const std::string dir = fresh_dir("field-dz");
  const H5Snapshot field =
      run_ok(dir, "f", "--double-zernike 2,4,0.3 --double-zernike 1,11,0.05 --field 0.5,0");
  const H5Snapshot fixed = run_ok(dir, "z", "--zernike 4,0.3 --zernike 11,0.05");
  EXPECT_LT(relative_l2(field.datasets.at("/psf"), fixed.datasets.at("/psf")), same_phase);
}

TEST(FieldRun, AnglesNeedTheFieldRadiusAndAreDividedByIt) {
  const std::string dir = fresh_dir("field-angle");
  const H5Snapshot s =
      run_ok(dir, "a", "--crop 8 --field-radius 2arcmin --field 60arcsec,-30arcsec");
  EXPECT_DOUBLE_EQ(s.datasets.at("/parameters/field_x")[0], 0.5);
  EXPECT_DOUBLE_EQ(s.datasets.at("/parameters/field_y")[0], -0.25);
  EXPECT_NEAR(std::stod(s.attributes.at("/psf@field_radius_arcsec")), 120.0, 1e-12);
  const auto r = run_psfsim(base + "--field 1arcmin,0arcmin -o " + dir + "/b.h5");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("--field-radius"), std::string::npos) << r.stderr_text;
}

// A table of Z4 linear in x and Z7 in y, on a 3 x 3 grid: cubic there, and exact.
std::string linear_table(const std::string& dir) {
  std::string csv = "field_x,field_y,Z4,Z7\n";
  for (const double y : {-1.0, 0.0, 1.0})
    for (const double x : {-1.0, 0.0, 1.0})
      csv += number(x) + "," + number(y) + "," + number(0.1 + 0.2 * x) + "," + number(-0.05 * y) +
             "\n";
  return write_text(dir + "/table.csv", csv);
}

TEST(FieldRun, TableInterpolatesExactlyAtNodesAndForLinearFields) {
  const std::string dir = fresh_dir("field-table");
  const std::string table = linear_table(dir);
  for (const auto& [x, y] : std::vector<std::pair<double, double>>{{1.0, 0.0}, {0.3, -0.6}}) {
    const H5Snapshot field =
        run_ok(dir, "t", "--field-table " + table + " --field " + number(x) + "," + number(y));
    const H5Snapshot fixed = run_ok(
        dir, "z", "--zernike 4," + number(0.1 + 0.2 * x) + " --zernike 7," + number(-0.05 * y));
    EXPECT_LT(relative_l2(field.datasets.at("/psf"), fixed.datasets.at("/psf")), same_phase)
        << x << "," << y;
    EXPECT_EQ(field.attributes.at("/psf@field_interpolation"), "cubic-grid");
  }
}

TEST(FieldRun, PointOutsideTheTableHullExitsTwoNamingThePointAndWritesNothing) {
  const std::string dir = fresh_dir("field-outside");
  const std::string table = linear_table(dir);
  const auto r = run_psfsim(base + "--field-table " + table + " --field 1.5,0 -o " + dir + "/o.h5");
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("1.5"), std::string::npos) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("--field-table"), std::string::npos) << r.stderr_text;
  EXPECT_TRUE(folder_is_empty_of_outputs(dir));
  // A grid reaching past the table is refused before any work, too.
  const auto g =
      run_psfsim(base + "--field-table " + table + " --field-grid 3,3,1.2 -o " + dir + "/g.h5");
  EXPECT_EQ(g.exit_code, 2) << g.stderr_text;
  EXPECT_TRUE(folder_is_empty_of_outputs(dir));
}

TEST(FieldRun, OutputNamingTheTableIsRefusedEvenWithForce) {
  const std::string dir = fresh_dir("field-self");
  const std::string table = linear_table(dir);
  const auto r = run_psfsim(base + "--field-table " + table + " -o " + table);
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("--field-table"), std::string::npos) << r.stderr_text;
  std::ifstream in(table);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(header, "field_x,field_y,Z4,Z7");
}

TEST(FieldRun, BadFieldOptionsExitTwoNamingTheOption) {
  const std::string dir = fresh_dir("field-bad");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--field 0.5", "--field"},
      {"--field a,b", "--field"},
      {"--field-grid 0,3", "--field-grid"},
      {"--field-grid 3,3,-1", "--field-grid"},
      {"--field-grid 3,3 --field 0,0", "--field-grid"},
      {"--field-grid 3,3 --vary Z4,0,1,3", "--field-grid"},
      {"--seidel-field 13,3,1,0.1", "--seidel-field"},
      {"--double-zernike 0,4,0.1", "--double-zernike"},
      {"--field-table " + dir + "/absent.csv", "--field-table"},
      {"--field-table " + dir, "--field-table"},
      {"--field-radius 1lod", "--field-radius"},
  };
  for (const auto& [args, named] : cases) {
    const auto r = run_psfsim(base + args + " -o " + dir + "/x.h5");
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.stderr_text;
    EXPECT_NE(r.stderr_text.find(named), std::string::npos) << args << "\n" << r.stderr_text;
    EXPECT_TRUE(folder_is_empty_of_outputs(dir)) << args;
  }
}

// Each form on a grid, and a grid times a spectrum, on the GPU against the CPU: the field
// terms reach the device only through the frames' phase polynomials.
TEST(FieldRun, GpuEqualsCpuForEachForm) {
  SKIP_WITHOUT_CUDA();
  const std::string dir = fresh_dir("field-gpu");
  const std::string table = linear_table(dir);
  const std::vector<std::string> forms = {
      "--seidel-field 1,3,1,0.3 --seidel-field 2,2,2,0.1 --field-grid 5,4",
      "--double-zernike 2,7,0.1 --double-zernike 4,4,0.2 --double-zernike 1,11,0.05 "
      "--field-grid 4,5",
      "--field-table " + table + " --field-grid 5,5,0.9",
      "--seidel-field 1,3,1,0.3 --field-grid 3,3 --band 500nm-600nm,3 --diameter 1m "
      "--pixel-scale 30mas --crop 48",
  };
  for (const std::string& form : forms)
    for (const char* precision : {"single", "double"}) {
      const std::string common =
          "run --quiet --force --samples 64 --metrics strehl,centroid "
          "--precision " +
          std::string(precision) + " " + form;
      const std::string cpu = dir + "/cpu.h5", gpu = dir + "/gpu.h5";
      ASSERT_EQ(run_psfsim(common + " --backend cpu -o " + cpu).exit_code, 0) << form;
      const auto r = run_psfsim(common + " --backend cuda -o " + gpu);
      ASSERT_EQ(r.exit_code, 0) << form << "\n" << r.stderr_text;
      const H5Snapshot a = read_h5(cpu), b = read_h5(gpu);
      const Precision p =
          std::string(precision) == "single" ? Precision::single : Precision::double_;
      EXPECT_LT(relative_l2(b.datasets.at("/psf"), a.datasets.at("/psf")), backend_tolerance(p))
          << form << " " << precision;
      EXPECT_EQ(b.datasets.at("/parameters/field_x"), a.datasets.at("/parameters/field_x"));
    }
}

TEST(FieldRun, VaryFieldXPlacesEachFrame) {
  const std::string dir = fresh_dir("field-vary");
  const H5Snapshot s =
      run_ok(dir, "v", "--crop 8 --seidel-field 1,3,1,0.2 --field 0,0.25 --vary field_x,-1,1,5");
  EXPECT_EQ(s.datasets.at("/parameters/field_x"), (std::vector<double>{-1.0, -0.5, 0.0, 0.5, 1.0}));
  EXPECT_EQ(s.datasets.at("/parameters/field_y"), std::vector<double>(5, 0.25));
}

}  // namespace
}  // namespace psfsim::test

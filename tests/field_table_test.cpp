// A table of coefficients at field points, read from CSV text and interpolated: the terms at a
// node are the node's, a field linear in position comes back exactly between nodes, and bad
// tables are refused naming the file and line.
#include <gtest/gtest.h>

#include <sstream>

#include "psfsim/errors.hpp"
#include "psfsim/field_table.hpp"

namespace psfsim {
namespace {

FieldTable parse(const std::string& text) {
  std::istringstream in(text);
  return parse_field_table_csv(in, "design.csv");
}

double zernike(const Aberration& a, int j) {
  for (const ZernikeTerm& t : a.zernike)
    if (t.j == j) return t.waves;
  ADD_FAILURE() << "no Z" << j;
  return 0.0;
}

TEST(FieldTable, ReadsTheFieldColumnsAnywhereAndInterpolatesTheTerms) {
  // Z4 = 0.1 + 0.2 x, Z8 = -0.05 y on a 3 x 2 grid, the field columns not first.
  const FieldTable table = parse(
      "# a designed instrument\n"
      "Z4,field_x,Z8,field_y\n"
      "0.0,-0.5,0.05,-1\n"
      "0.1,0,0.05,-1\n"
      "0.2,0.5,0.05,-1\n"
      "0.0,-0.5,-0.05,1\n"
      "0.1,0,-0.05,1\n"
      "0.2,0.5,-0.05,1\n");
  ASSERT_EQ(table.points.size(), 6U);
  EXPECT_EQ(table.points[3], (FieldPoint{-0.5, 1}));
  const FieldTableTerms terms(table, "design.csv");
  EXPECT_EQ(terms.method(), FieldInterpolation::cubic_grid);
  const Aberration node = terms.at({0.5, -1});
  EXPECT_NEAR(zernike(node, 4), 0.2, 1e-15);
  EXPECT_NEAR(zernike(node, 8), 0.05, 1e-15);
  const Aberration between = terms.at({0.3, 0.4});
  EXPECT_NEAR(zernike(between, 4), 0.1 + 0.2 * 0.3, 1e-12);
  EXPECT_NEAR(zernike(between, 8), -0.05 * 0.4, 1e-12);
  EXPECT_THROW((void)terms.at({0.6, 0}), InputError);
}

TEST(FieldTable, RefusesBadTablesNamingFileAndLine) {
  const auto message = [](const std::string& text) {
    try {
      (void)parse(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("Z4,Z5\n0,0\n").find("field_x and field_y"), std::string::npos);
  EXPECT_NE(message("field_x,field_y\n0,0\n").find("no terms"), std::string::npos);
  EXPECT_NE(message("field_x,field_y,Z4,Z4\n0,0,1,1\n").find("twice"), std::string::npos);
  EXPECT_NE(message("field_x,field_y,Z4\n0,0\n").find("design.csv:2"), std::string::npos);
  EXPECT_NE(message("field_x,field_y,Z4\n0,0,x\n").find("column 3"), std::string::npos);
  EXPECT_NE(message("field_x,field_y,Q9\n0,0,1\n").find("design.csv:1"), std::string::npos);
  EXPECT_NE(message("field_x,field_y,Z4\n").find("no field points"), std::string::npos);
  EXPECT_NE(message("").find("no header"), std::string::npos);
}

}  // namespace
}  // namespace psfsim

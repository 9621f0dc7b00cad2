// Lengths and angles with units: every unit, exact conversions, messages, round-trip formatting.
#include "psfsim/units.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include "psfsim/errors.hpp"
#include "psfsim/text_fields.hpp"

namespace psfsim {
namespace {

constexpr double pi = std::numbers::pi;

// |a - b| in units in the last place of b.
double ulps(double a, double b) { return std::fabs(a - b) / (std::nextafter(b, 2 * b) - b); }

// The message of the InputError that `f` throws ("" if it throws none).
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Units, EveryLengthUnit) {
  EXPECT_EQ(parse_length("550nm", "--wavelength"), 550e-9);
  EXPECT_LE(ulps(parse_length("4.6um", "--pixel-pitch"), 4.6e-6), 1.0);
  EXPECT_LE(ulps(parse_length("25.4mm", "--diameter"), 0.0254), 1.0);
  EXPECT_EQ(parse_length("8.2m", "--diameter"), 8.2);
  EXPECT_EQ(parse_length("1e3nm", "--wavelength"), 1e-6);
  EXPECT_EQ(parse_length("5e-7m", "--wavelength"), 5e-7);
  EXPECT_EQ(parse_length("-550nm", "--x"), -550e-9);
  EXPECT_EQ(parse_length("+550nm", "--x"), 550e-9);
}

TEST(Units, SpacesAndMicroSigns) {
  EXPECT_EQ(parse_length(" 550 nm ", "--wavelength"), 550e-9);
  EXPECT_EQ(parse_length("550\tnm", "--wavelength"), 550e-9);
  const double um = parse_length("4.6um", "--pixel-pitch");
  EXPECT_EQ(parse_length("4.6\u00b5m", "--pixel-pitch"), um);   // micro sign
  EXPECT_EQ(parse_length("4.6 \u03bcm", "--pixel-pitch"), um);  // Greek mu
}

TEST(Units, IntegerLengthsAreTheNearestDouble) {
  // Multiplying by 1e-9 (itself rounded) would miss by an ulp for many of these.
  for (int v = 1; v <= 3000; ++v) {
    const std::string n = std::to_string(v);
    EXPECT_EQ(parse_length(n + "nm", "--x"), *parse_finite_double(n + "e-9")) << v;
    EXPECT_EQ(parse_length(n + "um", "--x"), *parse_finite_double(n + "e-6")) << v;
    EXPECT_EQ(parse_length(n + "mm", "--x"), *parse_finite_double(n + "e-3")) << v;
  }
}

TEST(Units, EveryAngleUnit) {
  EXPECT_EQ(parse_angle("1deg", "--pixel-scale", false).value, pi / 180);
  EXPECT_LE(ulps(parse_angle("180deg", "--x", false).value, pi), 1.0);
  EXPECT_LE(ulps(parse_angle("648000arcsec", "--x", false).value, pi), 1.0);
  EXPECT_LE(ulps(parse_angle("648000000mas", "--x", false).value, pi), 1.0);
  EXPECT_LE(ulps(parse_angle("3600 arcsec", "--x", false).value, pi / 180), 1.0);
  EXPECT_LE(ulps(parse_angle("1000mas", "--x", false).value, pi / 648000), 1.0);
  EXPECT_FALSE(parse_angle("1deg", "--x", true).lod);

  const Angle lod = parse_angle("0.25 lod", "--jitter", true);
  EXPECT_TRUE(lod.lod);
  EXPECT_EQ(lod.value, 0.25);
}

TEST(Units, BareNumberNamesTheOptionAndTheUnits) {
  const std::string length = error_of([] { (void)parse_length("550", "--wavelength"); });
  EXPECT_EQ(length, "--wavelength '550': a length needs a unit: nm, um, mm or m");

  const std::string angle = error_of([] { (void)parse_angle("2", "--pixel-scale", false); });
  EXPECT_NE(angle.find("--pixel-scale '2'"), std::string::npos) << angle;
  EXPECT_NE(angle.find("mas, arcsec, arcmin or deg"), std::string::npos) << angle;

  const std::string jitter = error_of([] { (void)parse_angle("2", "--jitter", true); });
  EXPECT_NE(jitter.find("mas, arcsec, arcmin, deg or lod"), std::string::npos) << jitter;
}

TEST(Units, UnknownUnitsAreNamed) {
  for (const char* text : {"550nn", "550 NM", "550Mm", "5e", "1furlong", "2lod"}) {
    const std::string e = error_of([&] { (void)parse_length(text, "--wavelength"); });
    EXPECT_NE(e.find("--wavelength '" + std::string(text) + "'"), std::string::npos) << e;
    EXPECT_NE(e.find("unknown unit"), std::string::npos) << e;
    EXPECT_NE(e.find("nm, um, mm or m"), std::string::npos) << e;
  }
  for (const char* text : {"1rad", "1nm", "1amin", "1Deg"}) {
    const std::string e = error_of([&] { (void)parse_angle(text, "--jitter", true); });
    EXPECT_NE(e.find("--jitter '" + std::string(text) + "'"), std::string::npos) << e;
    EXPECT_NE(e.find("mas, arcsec, arcmin, deg or lod"), std::string::npos) << e;
  }
}

TEST(Units, LodOnlyWhereAllowed) {
  const std::string e = error_of([] { (void)parse_angle("0.5lod", "--pixel-scale", false); });
  EXPECT_NE(e.find("--pixel-scale '0.5lod'"), std::string::npos) << e;
  EXPECT_NE(e.find("lod (lambda/D) is not accepted here"), std::string::npos) << e;
  EXPECT_NE(e.find("mas, arcsec, arcmin or deg"), std::string::npos) << e;
  EXPECT_NO_THROW((void)parse_angle("0.5lod", "--jitter", true));
}

TEST(Units, MalformedNumbersAreRejected) {
  for (const char* text : {"", "   ", "nm", "abcnm", "nan nm", "inf nm", "1..2nm", "0x10nm",
                           "550n m", "1e999nm", "550mm2"}) {
    const std::string e = error_of([&] { (void)parse_length(text, "--wavelength"); });
    EXPECT_NE(e.find("--wavelength '"), std::string::npos) << "'" << text << "': " << e;
  }
  const std::string e = error_of([] { (void)parse_angle("1.2.3mas", "--jitter", true); });
  EXPECT_NE(e.find("'1.2.3' is not a finite number"), std::string::npos) << e;
}

TEST(Units, SignRules) {
  EXPECT_EQ(parse_length("-1nm", "--x", Sign::any), -1e-9);
  EXPECT_EQ(parse_length("1nm", "--x", Sign::positive), 1e-9);
  for (const char* text : {"0nm", "-1nm", "-0m"}) {
    const std::string e =
        error_of([&] { (void)parse_length(text, "--pixel-pitch", Sign::positive); });
    EXPECT_NE(e.find("--pixel-pitch '" + std::string(text) + "': must be greater than zero"),
              std::string::npos)
        << e;
  }
  EXPECT_EQ(parse_angle("0mas", "--jitter", true, Sign::non_negative).value, 0.0);
  const std::string e =
      error_of([] { (void)parse_angle("-1mas", "--jitter", true, Sign::non_negative); });
  EXPECT_NE(e.find("--jitter '-1mas': must not be negative"), std::string::npos) << e;
  EXPECT_THROW((void)parse_angle("-1lod", "--jitter", true, Sign::non_negative), InputError);
  EXPECT_THROW((void)parse_angle("0deg", "--pixel-scale", false, Sign::positive), InputError);
}

TEST(Units, FormatPicksAReadableUnit) {
  EXPECT_EQ(format_length(550e-9), "550nm");
  EXPECT_EQ(format_length(0.5e-9), "0.5nm");
  EXPECT_EQ(format_length(4.6e-6), "4.6um");
  EXPECT_EQ(format_length(1e-6), "1um");
  EXPECT_EQ(format_length(0.0254), "25.4mm");
  EXPECT_EQ(format_length(8.2), "8.2m");
  EXPECT_EQ(format_length(-550e-9), "-550nm");
  EXPECT_EQ(format_angle(parse_angle("10mas", "--x", false)), "10mas");
  EXPECT_EQ(format_angle(parse_angle("1.5arcsec", "--x", false)), "1.5arcsec");
  EXPECT_EQ(format_angle(parse_angle("2deg", "--x", false)), "2deg");
  EXPECT_EQ(format_angle(Angle{0.5, true}), "0.5lod");
  EXPECT_EQ(format_angle(Angle{0.0, false}), "0mas");
}

TEST(Units, FormatRoundTripsBitForBit) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> exponent(-13.0, 4.0);
  for (int i = 0; i < 20000; ++i) {
    const double v = std::pow(10.0, exponent(rng)) * (i % 7 == 0 ? -1 : 1);
    const std::string length = format_length(v);
    EXPECT_EQ(parse_length(length, "--x"), v) << length;
    const Angle lod = parse_angle(format_angle(Angle{v, true}), "--x", true);
    EXPECT_TRUE(lod.lod);
    EXPECT_EQ(lod.value, v);
  }
}

TEST(Units, FormatRoundTripsEveryParsedAngleBitForBit) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> exponent(-4.0, 6.0);
  const char* units[] = {"mas", "arcsec", "deg"};
  for (int i = 0; i < 20000; ++i) {
    const std::string text = format_number(std::pow(10.0, exponent(rng))) + units[i % 3];
    const double v = parse_angle(text, "--x", false).value;
    const std::string formatted = format_angle(Angle{v, false});
    EXPECT_EQ(parse_angle(formatted, "--x", false).value, v) << text << " -> " << formatted;
  }
  // Any other angle comes back within two ulps.
  std::uniform_real_distribution<double> radians(-13.0, 1.0);
  for (int i = 0; i < 20000; ++i) {
    const double v = std::pow(10.0, radians(rng));
    const std::string formatted = format_angle(Angle{v, false});
    EXPECT_LE(ulps(parse_angle(formatted, "--x", false).value, v), 2.0) << formatted;
  }
}

}  // namespace
}  // namespace psfsim

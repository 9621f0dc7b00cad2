// Spectra from --wavelengths and --band, the reference wavelength and the frames' weights.
#include "psfsim/spectrum.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "psfsim/errors.hpp"

namespace psfsim {
namespace {

template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// The message for `text` contains the option, the whole text and every one of `parts`.
void expect_wavelengths_error(const std::string& text, std::initializer_list<const char*> parts) {
  const std::string e = error_of([&] { (void)parse_wavelengths(text, "--wavelengths"); });
  EXPECT_NE(e.find("--wavelengths '"), std::string::npos) << text << ": " << e;
  for (const char* part : parts) EXPECT_NE(e.find(part), std::string::npos) << text << ": " << e;
}

void expect_band_error(const std::string& text, std::initializer_list<const char*> parts) {
  const std::string e = error_of([&] { (void)band_spectrum(text, "--band"); });
  EXPECT_NE(e.find("--band '"), std::string::npos) << text << ": " << e;
  for (const char* part : parts) EXPECT_NE(e.find(part), std::string::npos) << text << ": " << e;
}

TEST(Spectrum, ParsesWeightedLinesInTheUsersOrder) {
  const auto lines = parse_wavelengths("600nm:3, 550 nm : 1", "--wavelengths");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].wavelength_m, 600e-9);
  EXPECT_EQ(lines[0].weight, 0.75);
  EXPECT_EQ(lines[1].wavelength_m, 550e-9);
  EXPECT_EQ(lines[1].weight, 0.25);
}

TEST(Spectrum, BareWavelengthHasWeightOne) {
  const auto lines = parse_wavelengths("500nm,0.6um:3", "--wavelengths");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].weight, 0.25);
  EXPECT_EQ(lines[1].weight, 0.75);
  const auto one = parse_wavelengths("550nm", "--wavelengths");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].weight, 1.0);
}

TEST(Spectrum, WeightsAreNormalized) {
  const auto lines = parse_wavelengths("400nm:0.3,500nm:0.3,600nm:0.7,700nm:1e-3", "--w");
  double sum = 0.0;
  for (const auto& l : lines) sum += l.weight;
  EXPECT_NEAR(sum, 1.0, 1e-15);
  EXPECT_NEAR(lines[2].weight, 0.7 / 1.301, 1e-15);
}

TEST(Spectrum, RejectsBadWeights) {
  expect_wavelengths_error("500nm:1,550nm:0", {"'0'", "'550nm:0'", "greater than zero"});
  expect_wavelengths_error("550nm:-1", {"'-1'", "'550nm:-1'"});
  expect_wavelengths_error("550nm:nan", {"'nan'"});
  expect_wavelengths_error("550nm:inf", {"'inf'"});
  expect_wavelengths_error("550nm:x", {"'x'"});
  expect_wavelengths_error("550nm:", {"''", "'550nm:'"});
  expect_wavelengths_error("550nm:1e308,600nm:1e308", {"overflow"});
}

TEST(Spectrum, RejectsBadWavelengths) {
  expect_wavelengths_error("550:1", {"'550'", "nm, um, mm or m"});
  expect_wavelengths_error("500nm:1,-550nm:1", {"'-550nm'", "greater than zero"});
  expect_wavelengths_error("500nm,,600nm", {"empty entry"});
  expect_wavelengths_error("", {"empty entry"});
}

TEST(Spectrum, RejectsDuplicateWavelengths) {
  expect_wavelengths_error("550nm:1,600nm:1,550nm:2", {"'550nm:1'", "'550nm:2'", "same"});
  // These two parse an ulp apart.
  expect_wavelengths_error("400nm,0.4um", {"'400nm'", "'0.4um'", "same"});
  // A femtometre apart is distinct.
  EXPECT_EQ(parse_wavelengths("550nm,550.000001nm", "--w").size(), 2u);
}

TEST(Spectrum, RejectsTooManyLines) {
  std::string text = "1nm";
  for (int i = 2; i <= max_spectral_lines + 1; ++i) text += "," + std::to_string(i) + "nm";
  expect_wavelengths_error(text, {"more than 10000"});
}

TEST(Spectrum, BandIncludesBothEnds) {
  const auto lines = band_spectrum("500nm-600nm,5", "--band");
  ASSERT_EQ(lines.size(), 5u);
  const double expected[] = {500e-9, 525e-9, 550e-9, 575e-9, 600e-9};
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(lines[i].wavelength_m, expected[i], 1e-22) << i;
    EXPECT_EQ(lines[i].weight, 0.2);
  }
  EXPECT_EQ(lines.front().wavelength_m, 500e-9);
  EXPECT_EQ(lines.back().wavelength_m, 600e-9);
  // lo + (hi - lo) * 1 misses hi by an ulp here; the end is pinned.
  EXPECT_EQ(band_spectrum("1nm-3nm,3", "--band").back().wavelength_m, 3e-9);
}

TEST(Spectrum, BandOfOneIsTheCentre) {
  const auto lines = band_spectrum("500nm-600nm,1", "--band");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NEAR(lines[0].wavelength_m, 550e-9, 1e-22);
  EXPECT_EQ(lines[0].weight, 1.0);
}

TEST(Spectrum, BandAcceptsExponentsSpacesAndMixedUnits) {
  const auto a = band_spectrum("5e-7m - 6e-7m, 3", "--band");
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].wavelength_m, 5e-7);
  EXPECT_NEAR(a[1].wavelength_m, 5.5e-7, 1e-22);
  EXPECT_EQ(a[2].wavelength_m, 6e-7);
  const auto b = band_spectrum("0.5um-600nm,2", "--band");
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[1].wavelength_m, 600e-9);
}

TEST(Spectrum, BandErrorsNameTheField) {
  expect_band_error("600nm-500nm,3", {"'600nm'", "'500nm'", "below"});
  expect_band_error("500nm-500nm,3", {"below"});
  expect_band_error("500nm-600nm,0", {"COUNT '0'"});
  expect_band_error("500nm-600nm,x", {"COUNT 'x'"});
  expect_band_error("500nm-600nm,2.5", {"COUNT '2.5'"});
  expect_band_error("500nm-600nm,10001", {"COUNT '10001'", "10000"});
  expect_band_error("500nm-600nm", {"MIN-MAX,COUNT"});
  expect_band_error("500nm,5", {"MIN-MAX,COUNT"});
  expect_band_error("500-600,5", {"'500'", "nm, um, mm or m"});
  expect_band_error("500nm-600,5", {"'600'", "nm, um, mm or m"});
  expect_band_error("-500nm-600nm,5", {"'-500nm'", "greater than zero"});
  expect_band_error("500nm-500.0000000000001nm,10000", {"too narrow"});
}

TEST(Spectrum, ReferenceIsExplicitOrTheWeightedMean) {
  const auto lines = parse_wavelengths("500nm:1,600nm:3", "--wavelengths");
  EXPECT_NEAR(reference_wavelength(lines, std::nullopt), 575e-9, 1e-22);
  EXPECT_EQ(reference_wavelength(lines, 550e-9), 550e-9);
  EXPECT_THROW((void)reference_wavelength({}, std::nullopt), std::invalid_argument);
}

TEST(Spectrum, FrameWeightsScaleAsTheInverseSquareOfTheWavelength) {
  const auto lines = parse_wavelengths("500nm:1,1000nm:3", "--wavelengths");
  const auto w = spectral_frame_weights(lines, 500e-9);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], 0.25);         // s_k = s_ref
  EXPECT_EQ(w[1], 0.75 * 0.25);  // twice the wavelength: half the pixel scale in λ/D
  const auto same = spectral_frame_weights(lines, 1000e-9);
  EXPECT_EQ(same[0], 0.25 * 4.0);
  EXPECT_EQ(same[1], 0.75);
}

}  // namespace
}  // namespace psfsim

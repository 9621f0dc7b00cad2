// Validation of a run, in one place, and the sizes it derives.
#include <gtest/gtest.h>

#include <cmath>

#include "psfsim/errors.hpp"
#include "psfsim/run_plan.hpp"

namespace psfsim {
namespace {

RunSpec valid() {
  RunSpec s;
  s.output = "out.h5";
  return s;
}

TEST(RunSpec, DefaultsGiveQ2AndFullFrame) {
  const Geometry g = geometry(valid());
  EXPECT_EQ(g.padded, 256);
  EXPECT_EQ(g.frame, 256);
  EXPECT_DOUBLE_EQ(g.pixel_scale_lambda_over_d, 0.5);
}

TEST(RunSpec, PadFactorRoundsToNearest) {
  RunSpec s = valid();
  s.samples = 100;
  s.pad_factor = 2.555;
  EXPECT_EQ(geometry(s).padded, 256);  // round(255.5)
  s.pad_factor.reset();
  s.padded_size = 301;
  EXPECT_EQ(geometry(s).padded, 301);
}

TEST(RunSpec, RejectsEachBadValueWithItsOptionName) {
  const auto expect_rejected = [](RunSpec s, const std::string& option) {
    try {
      validate(s);
      ADD_FAILURE() << "accepted, expected an error naming " << option;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(option), std::string::npos) << e.what();
    }
  };
  RunSpec s = valid();
  s.samples = 1;
  expect_rejected(s, "--samples");
  s = valid();
  s.samples = 1 << 20;
  expect_rejected(s, "--samples");
  s = valid();
  s.pad_factor = 0.5;
  expect_rejected(s, "--pad-factor");
  s = valid();
  s.pad_factor = NAN;
  expect_rejected(s, "--pad-factor");
  s = valid();
  s.padded_size = 100;
  expect_rejected(s, "--padded-size");
  s = valid();
  s.crop = 257;
  s.optics.propagation = Propagation::fft;
  expect_rejected(s, "--crop");
  s = valid();
  s.crop = 0;
  expect_rejected(s, "--crop");
  s = valid();
  s.obscuration = 1.0;
  expect_rejected(s, "--obscuration");
  s = valid();
  s.obscuration = INFINITY;
  expect_rejected(s, "--obscuration");
  s = valid();
  s.repeat = 0;
  expect_rejected(s, "--repeat");
  s = valid();
  s.threads = -1;
  expect_rejected(s, "--threads");
  s = valid();
  s.pad_factor = 2.0;
  s.padded_size = 256;
  expect_rejected(s, "--padded-size");
}

// docs/spec.md §6: auto takes the MFT where only it applies, as for a crop larger than M.
TEST(RunSpec, AutoPropagationTakesTheMftForACropBeyondThePaddedSize) {
  RunSpec s = valid();
  s.samples = 32;
  s.crop = 100;
  validate(s);
  const Geometry g = geometry(s);
  EXPECT_EQ(g.padded, 64);
  EXPECT_EQ(g.frame, 100);
  EXPECT_FALSE(g.fft_applies);
  EXPECT_EQ(g.propagation, Propagation::mft);
}

// docs/spec.md §6: pixel_scale_arcsec is recorded wherever a diameter and a wavelength make the
// pixel scale an angle, from the pad factor's lambda/D as from an explicit one.
TEST(RunSpec, ADiameterAndAWavelengthGiveThePixelScaleInArcsec) {
  RunSpec s = valid();
  s.samples = 32;
  EXPECT_FALSE(geometry(s).pixel_scale_arcsec.has_value());
  s.optics.wavelength_m = 500e-9;
  s.optics.diameter_m = 1.0;
  const double arcsec_per_radian = 180.0 * 3600.0 / M_PI;
  const Geometry g = geometry(s);  // s = N/M = 0.5 lambda/D
  ASSERT_TRUE(g.pixel_scale_arcsec.has_value());
  EXPECT_NEAR(*g.pixel_scale_arcsec, 0.5 * 500e-9 / 1.0 * arcsec_per_radian, 1e-12);
  s.optics.pixel_scale = Angle{0.37, true};  // in lod
  const Geometry lod = geometry(s);
  ASSERT_TRUE(lod.pixel_scale_arcsec.has_value());
  EXPECT_NEAR(*lod.pixel_scale_arcsec, 0.37 * 500e-9 * arcsec_per_radian, 1e-12);
}

}  // namespace
}  // namespace psfsim

// User text on its way in and back out (psfsim/text_fields.hpp): seeds read as decimal digits
// only, byte-order marks read past (in --frames CSV files too), and echoed text made
// printable, byte by byte against hand-written expectations.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "psfsim/errors.hpp"
#include "psfsim/aberration_sources.hpp"
#include "psfsim/frames_file.hpp"
#include "psfsim/text_fields.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {

TEST(InputText, SeedsAreDecimalDigitsBelow2To64) {
  EXPECT_EQ(parse_seed("0"), 0u);
  EXPECT_EQ(parse_seed(" 42 "), 42u);
  EXPECT_EQ(parse_seed("007"), 7u);
  EXPECT_EQ(parse_seed("18446744073709551615"), UINT64_MAX);
  for (const char* bad : {"", "-1", "+1", "18446744073709551616", "99999999999999999999999", "1e23",
                          "1.0", "0x10", "1 2", "one"})
    EXPECT_FALSE(parse_seed(bad).has_value()) << bad;
}

TEST(InputText, PrintableEscapesWhatATerminalWouldObey) {
  EXPECT_EQ(printable("plain text, 550nm"), "plain text, 550nm");
  EXPECT_EQ(printable("5\xc2\xb5m and \xce\xbcm"), "5\xc2\xb5m and \xce\xbcm");  // µm, μm
  EXPECT_EQ(printable("a\x1b[31mb"), "a\\x1b[31mb");
  EXPECT_EQ(printable("two\nlines\tand\r"), "two\\nlines\\tand\\r");
  EXPECT_EQ(printable(std::string("nul\0here", 8)), "nul\\x00here");
  EXPECT_EQ(printable("\x7f"
                      "ELF"),
            "\\x7fELF");
  // Not UTF-8: a lone continuation byte, a cut sequence, an overlong '/', a surrogate.
  EXPECT_EQ(printable("\x80"), "\\x80");
  EXPECT_EQ(printable("\xe2\x82"), "\\xe2\\x82");
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  // UTF-8 that hides or reorders text: C1 CSI, right-to-left override, zero-width space, BOM.
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\u{009b}31m");
  EXPECT_EQ(printable("abc\xe2\x80\xae"
                      "fed"),
            "abc\\u{202e}fed");
  EXPECT_EQ(printable("a\xe2\x80\x8b"
                      "b"),
            "a\\u{200b}b");
  EXPECT_EQ(printable("\xef\xbb\xbfZ4"), "\\u{feff}Z4");
}

TEST(InputText, ByteOrderMarkIsDroppedOnlyAtTheStart) {
  EXPECT_EQ(without_bom("\xef\xbb\xbfZ4,Z11"), "Z4,Z11");
  EXPECT_EQ(without_bom("Z4,Z11"), "Z4,Z11");
  EXPECT_EQ(without_bom("\xef\xbb"), "\xef\xbb");
  EXPECT_EQ(without_bom("Z4\xef\xbb\xbf"), "Z4\xef\xbb\xbf");
}

// Excel's "CSV UTF-8" begins the file with a byte-order mark: the table reads as without it.
TEST(InputText, FramesCsvWithAByteOrderMarkReadsAsWithout) {
  const std::string dir = fresh_dir("csv-bom");
  const std::string table = "Z4,S2_1\r\n0.1,0.3\r\n-0.2,0.5\r\n";
  const auto plain = read_frames_csv(Aberration{}, write_text(dir + "/plain.csv", table));
  const auto marked =
      read_frames_csv(Aberration{}, write_text(dir + "/marked.csv", "\xef\xbb\xbf" + table));
  ASSERT_EQ(marked.size(), 2u);
  for (std::size_t f = 0; f < plain.size(); ++f) {
    EXPECT_EQ(to_string(marked[f].zernike.at(0)), to_string(plain[f].zernike.at(0)));
    EXPECT_EQ(to_string(marked[f].seidel.at(0)), to_string(plain[f].seidel.at(0)));
  }
  EXPECT_EQ(to_string(marked[1].zernike.at(0)), "4,-0.2");
}

TEST(InputText, RandomSeedsTakeTheWhole64Bits) {
  EXPECT_EQ(parse_random("4-5,0.1,2,18446744073709551615").seed, UINT64_MAX);
  EXPECT_THROW((void)parse_random("4-5,0.1,2,18446744073709551616"), InputError);
  EXPECT_THROW((void)parse_random("4-5,0.1,2,-1"), InputError);
}

}  // namespace
}  // namespace psfsim::test

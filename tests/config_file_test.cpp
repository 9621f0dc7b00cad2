// The config reader in process (apps/cli/config_file.cpp): a config file means what the same
// options mean on the command line, compared by the effective configuration each gives
// (the `config` attribute a run records), for every file in configs/ and for TOML 1.0's
// own syntax; byte-order marks, decimal integers and 64-bit seeds.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "psfsim/effective_config.hpp"
#include "psfsim/text_fields.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

struct Parsed {
  std::string error;   // psfsim's message; empty when the arguments parsed
  RunSpec spec;        // for `run`
  std::string config;  // the effective [run] table, without its output line
};

Parsed parse(std::vector<std::string> args) {
  args.insert(args.begin(), "psfsim");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  const int argc = static_cast<int>(argv.size());
  const auto cli = app::make_command_line();
  Parsed p;
  try {
    app::parse_command_line(*cli, argc, argv.data());
  } catch (const CLI::ParseError& e) {
    p.error = app::parse_error_message(*cli, e, argc, argv.data());
    return p;
  }
  p.spec = app::to_run_spec(cli->run_options);
  p.config = to_toml(p.spec);
  p.config.erase(p.config.find("output = "));
  return p;
}

// `key = value` lines of a config's [run] table as command-line options, read without a
// TOML library: a string's quotes dropped, each item of an array of strings repeated as
// the option is. Enough for the files in configs/, which hold nothing else.
std::vector<std::string> as_options(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> args{"run"};
  bool in_run = false;
  // A [[run.plane]] table's keys, unquoted, as --plane's text once the table ends.
  std::map<std::string, std::string> plane;
  const auto end_plane = [&] {
    if (plane.empty()) return;
    const std::string type = plane["type"];
    if (type == "focal") args.push_back("--plane=focal:" + plane["mask"]);
    if (type == "distance") args.push_back("--plane=distance:" + plane["z"]);
    if (type == "pupil") {
      std::string text = "--plane=pupil:" + plane["diameter"];
      if (plane.count("obscuration") > 0) text += "," + plane["obscuration"];
      if (plane.count("spiders") > 0) {
        std::string spiders = plane["spiders"];  // [4, 0.02, 45]
        std::erase(spiders, '[');
        std::erase(spiders, ']');
        std::erase(spiders, ' ');
        text += ";" + spiders;
      }
      args.push_back(text);
    }
    plane.clear();
  };
  bool in_plane = false;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    if (line[0] == '[') {
      end_plane();
      in_run = line == "[run]";
      in_plane = line == "[[run.plane]]";
      continue;
    }
    if (in_plane) {
      const auto equals = line.find(" = ");
      std::string value = line.substr(equals + 3);
      if (value[0] == '"') value = value.substr(1, value.size() - 2);
      plane[line.substr(0, equals)] = value;
      continue;
    }
    if (!in_run) continue;
    const auto equals = line.find(" = ");
    EXPECT_NE(equals, std::string::npos) << path << ": " << line;
    const std::string key = line.substr(0, equals);
    const std::string value = line.substr(equals + 3);
    if (value[0] == '[') {
      for (std::size_t open = value.find('"'); open != std::string::npos;
           open = value.find('"', value.find('"', open + 1) + 1)) {
        const std::size_t close = value.find('"', open + 1);
        args.push_back("--" + key + "=" + value.substr(open + 1, close - open - 1));
      }
    } else if (value[0] == '"') {
      args.push_back("--" + key + "=" + value.substr(1, value.size() - 2));
    } else {
      args.push_back("--" + key + "=" + value);
    }
  }
  end_plane();
  return args;
}

TEST(ConfigFile, EveryExampleConfigMeansItsOptions) {
  int seen = 0;
  for (const auto& e : fs::directory_iterator(fs::path(PSFSIM_SOURCE_DIR) / "configs")) {
    if (e.path().extension() != ".toml") continue;
    ++seen;
    SCOPED_TRACE(e.path().string());
    const Parsed from_file = parse({"run", "-c", e.path().string()});
    ASSERT_EQ(from_file.error, "");
    const std::vector<std::string> options = as_options(e.path().string());
    ASSERT_GT(options.size(), 3u);
    const Parsed from_options = parse(options);
    ASSERT_EQ(from_options.error, "");
    EXPECT_EQ(from_file.config, from_options.config);
  }
  EXPECT_GE(seen, 8);
}

// TOML 1.0 that psfsim's reader before toml++ refused or misread: underscores in numbers,
// multi-line and literal strings, hexadecimal integers, exponents, comments inside arrays,
// dotted keys and inline tables.
TEST(ConfigFile, TomlSyntaxIsReadAsTomlOneZero) {
  const std::string dir = fresh_dir("config-toml-syntax");
  const std::vector<std::string> expected{"run",
                                          "--samples=16",
                                          "--normalize=sum",
                                          "--backend=cpu",
                                          "--crop=16",
                                          "--pad-factor=3",
                                          "--zernike=4,0.1",
                                          "--zernike=11,0.05",
                                          "--grid=linspace",
                                          "--metrics=strehl,ee",
                                          "--ee-radii=1,2.5",
                                          "--obscuration=0.25"};
  const Parsed want = parse(expected);
  ASSERT_EQ(want.error, "");
  const std::string tables =
      "# psfsim's keys in TOML 1.0's spellings\n"
      "[run]\n"
      "samples = 1_6\n"
      "normalize = \"\"\"sum\"\"\"\n"
      "backend = 'cpu'  # a literal string\n"
      "crop = 0x10\n"
      "pad-factor = 3.0e0\n"
      "zernike = [\n"
      "  \"4,0.1\",  # defocus\n"
      "  '11,0.05',\n"
      "]\n"
      "grid = \"\"\"\\\n"
      "    linspace\"\"\"\n"
      "metrics = [\"strehl\", \"ee\"]\n"
      "ee-radii = [1, 2.5]\n"
      "obscuration = 25e-2\n";
  const std::string dotted =
      "run.samples = 16\nrun.normalize = \"sum\"\nrun.backend = \"cpu\"\nrun.crop = 16\n"
      "run.pad-factor = 3\nrun.zernike = [\"4,0.1\", \"11,0.05\"]\nrun.grid = \"linspace\"\n"
      "run.metrics = \"strehl,ee\"\nrun.ee-radii = \"1,2.5\"\nrun.obscuration = 0.25\n";
  const std::string inline_table =
      "run = { samples = 16, normalize = \"sum\", backend = \"cpu\", crop = 16, pad-factor = 3, "
      "zernike = [\"4,0.1\", \"11,0.05\"], grid = \"linspace\", metrics = \"strehl,ee\", "
      "ee-radii = [1, 2.5], obscuration = 0.25 }\n";
  int n = 0;
  for (const std::string& text : {tables, dotted, inline_table}) {
    const std::string path = write_text(dir + "/" + std::to_string(n++) + ".toml", text);
    SCOPED_TRACE(text);
    const Parsed got = parse({"run", "-c", path});
    ASSERT_EQ(got.error, "");
    EXPECT_EQ(got.config, want.config);
  }
}

// Non-ASCII text where toml++ 3.3 would reach its undefined classification (found by
// fuzz/): outside strings it is refused, as TOML 1.0 does; after a multi-line string's
// line-ending backslash it is the character it is, and in strings and comments too.
TEST(ConfigFile, NonAsciiTextIsReadOrRefusedAsTomlSays) {
  const std::string dir = fresh_dir("config-non-ascii");
  const std::string omicron = "\xcf\x8c";  // U+03CC, in the range the table lacks
  const Parsed inside =
      parse({"run", "-c",
             write_text(dir + "/in.toml", "[run]  # " + omicron + "\noutput = \"\"\"\\\n   " +
                                              omicron + ".h5\"\"\"\n")});
  ASSERT_EQ(inside.error, "");
  EXPECT_EQ(inside.spec.output, omicron + ".h5");
  for (const std::string& text :
       {"[run]\nsamples = 64" + omicron + "\n", "[run]\n" + omicron + " = 1\n",
        "[run]\nzernike = [\"4,0.1\", " + omicron + "]\n"}) {
    const Parsed outside = parse({"run", "-c", write_text(dir + "/out.toml", text)});
    EXPECT_NE(outside.error.find("out.toml line 2: not valid TOML: a non-ASCII character "
                                 "outside a string or comment"),
              std::string::npos)
        << outside.error;
  }
}

TEST(ConfigFile, AByteOrderMarkIsReadPast) {
  const std::string dir = fresh_dir("config-bom");
  const std::string path = write_text(dir + "/bom.toml", "\xef\xbb\xbf[run]\nsamples = 24\n");
  const Parsed got = parse({"run", "-c", path});
  ASSERT_EQ(got.error, "");
  EXPECT_EQ(got.config, parse({"run", "--samples", "24"}).config);
}

// CLI11 alone reads "010" as octal 8 and "0x10" as 16; psfsim's integers are decimal.
TEST(ConfigFile, IntegersOnTheCommandLineAreDecimal) {
  const Parsed got = parse({"run", "--samples", "010", "--crop", "+12"});
  ASSERT_EQ(got.error, "");
  EXPECT_EQ(got.spec.samples, 10);
  EXPECT_EQ(got.spec.crop, 12);
  EXPECT_NE(parse({"run", "--samples", "0x10"}).error, "");
}

// Seeds take every value from 0 to 2^64 - 1, and the effective configuration of one beyond
// TOML's integers (quoted digits) reads back as the same seed.
TEST(ConfigFile, SeedsUpTo2To64Minus1RoundTrip) {
  const std::string dir = fresh_dir("config-seeds");
  for (const std::string seed :
       {"0", "9223372036854775807", "9223372036854775808", "18446744073709551615"}) {
    SCOPED_TRACE(seed);
    const Parsed got = parse({"run", "--photons", "100", "--noise-seed", seed});
    ASSERT_EQ(got.error, "");
    EXPECT_EQ(std::to_string(got.spec.optics.noise_seed), seed);
    const std::string path = write_text(dir + "/" + seed + ".toml", got.config);
    const Parsed again = parse({"run", "-c", path});
    ASSERT_EQ(again.error, "") << got.config;
    EXPECT_EQ(again.config, got.config);
  }
  EXPECT_EQ(parse({"run", "--photons", "100", "--noise-seed", "+5"}).error,
            "--noise-seed: '+5' must be a decimal integer from 0 to 18446744073709551615");
}

// The effective configuration is TOML that toml++ wrote: any UTF-8 name reads back as
// itself, quotes, backslashes, tabs and control characters included. A name that is not
// UTF-8 is recorded as its bytes, which TOML cannot hold: the config is refused when read
// back (docs/cli.md), not read as another name.
TEST(ConfigFile, TheEffectiveConfigurationHoldsAnyFileName) {
  const std::string dir = fresh_dir("config-names");
  for (const std::string name : {"a \"b\" \\c\td\x1b\x7f \xc2\xb5m 'e'.h5", "#[run]=\n.h5"}) {
    SCOPED_TRACE(printable(name));
    const Parsed got = parse({"run", "-o", name});
    ASSERT_EQ(got.error, "");
    const std::string path = write_text(dir + "/names.toml", to_toml(got.spec));
    const Parsed again = parse({"run", "-c", path});
    ASSERT_EQ(again.error, "") << to_toml(got.spec);
    EXPECT_EQ(again.spec.output, name);
  }
  const Parsed bytes = parse({"run", "-o", "out\xff.h5"});
  ASSERT_EQ(bytes.error, "");
  const std::string text = to_toml(bytes.spec);
  EXPECT_NE(text.find("output = \"out\xff.h5\""), std::string::npos) << printable(text);
  const Parsed refused = parse({"run", "-c", write_text(dir + "/bytes.toml", text)});
  EXPECT_NE(refused.error.find("not valid TOML: Encountered invalid utf-8 sequence"),
            std::string::npos)
      << refused.error;
}

// The command line wins over the file, the file's value unread: a bad value there is not
// checked, as CLI11 never converts it.
TEST(ConfigFile, TheCommandLineReplacesAFileValueUnchecked) {
  const std::string dir = fresh_dir("config-override");
  const std::string path = write_text(dir + "/c.toml", "[run]\nsamples = 1\ngrid = \"square\"\n");
  const Parsed got = parse({"run", "-c", path, "--samples", "24", "--grid", "linspace"});
  ASSERT_EQ(got.error, "");
  EXPECT_EQ(got.spec.samples, 24);
  // A wrong TOML type is the file's error all the same.
  write_text(path, "[run]\nsamples = \"24\"\n");
  EXPECT_NE(parse({"run", "-c", path, "--samples", "24"}).error, "");
}

}  // namespace
}  // namespace psfsim::test

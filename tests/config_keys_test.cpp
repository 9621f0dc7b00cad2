// Every option `psfsim run --help` lists is also a config key, checked by what it does: a run
// configured by the file equals the same run given on the command line (/psf, /parameters,
// every attribute, the /timings it records, the effective configuration), and differs from
// a run without the option. The options are read from --help, so a new option without a case
// here fails the test instead of going unchecked.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <set>
#include <string>
#include <vector>

#include "h5_snapshot.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

struct KeyCase {
  std::string cli;   // the option on the command line
  std::string toml;  // the same in the [run] table
};

// A non-default value for every key; `dir` holds the files some of them name.
std::map<std::string, KeyCase> key_cases(const std::string& dir) {
  std::ofstream(dir + "/frames.csv") << "Z4,S2_1\n0.1,0.3\n-0.2,0.5\n";
  std::ofstream(dir + "/field.csv") << "field_x,field_y,Z4\n-1,0,0.1\n1,0,0.3\n0,1,-0.2\n";
  // 32 x 32 float64 .npy maps for the pupil-map keys: a graded amplitude and a tilt.
  const auto npy = [&](const std::string& name, double offset, double slope) {
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (32, 32), }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::string bytes =
        std::string("\x93NUMPY\x01", 7) + '\0' + static_cast<char>(header.size()) + '\0' + header;
    for (int i = 0; i < 32 * 32; ++i) {
      const double v = offset + slope * (i % 32) / 31.0;
      bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    std::ofstream(dir + "/" + name, std::ios::binary) << bytes;
    return dir + "/" + name;
  };
  const std::string amplitude = npy("amplitude.npy", 0.5, 0.5);
  const std::string opd = npy("opd.npy", 0.0, 0.3);
  return {
      {"backend", {"--backend cpu", "backend = \"cpu\""}},
      {"precision", {"--precision double", "precision = \"double\""}},
      {"samples", {"--samples 24", "samples = 24"}},
      {"pad-factor", {"--pad-factor 3", "pad-factor = 3"}},
      {"padded-size", {"--padded-size 301", "padded-size = 301"}},
      {"grid", {"--grid linspace", "grid = \"linspace\""}},
      {"seidel", {"--seidel 2,1,0.5 --seidel 4,0,0.25", "seidel = [\"2,1,0.5\", \"4,0,0.25\"]"}},
      {"zernike", {"--zernike 4,0.1 --zernike 11,0.05", "zernike = [\"4,0.1\", \"11,0.05\"]"}},
      // docs/spec.md §7: with a term for the convention to read (Fringe 9 is Noll 11 / sqrt(5)).
      {"zernike-order",
       {"--zernike-order fringe --zernike 9,0.3",
        "zernike-order = \"fringe\"\nzernike = [\"9,0.3\"]"}},
      {"zernike-norm",
       {"--zernike-norm unit --zernike 4,0.3", "zernike-norm = \"unit\"\nzernike = [\"4,0.3\"]"}},
      {"obscuration", {"--obscuration 0.3", "obscuration = 0.3"}},
      {"normalize", {"--normalize sum", "normalize = \"sum\""}},
      {"threads", {"--threads 1", "threads = 1"}},
      {"device", {"--device 3", "device = 3"}},
      {"fft-effort", {"--fft-effort patient", "fft-effort = \"patient\""}},
      {"wisdom", {"--wisdom " + dir + "/w.wisdom", "wisdom = \"" + dir + "/w.wisdom\""}},
      {"stage-timing", {"--stage-timing", "stage-timing = true"}},
      {"vary", {"--vary Z4,-1,1,3", "vary = \"Z4,-1,1,3\""}},
      {"random", {"--random 4-6,0.1,3,7", "random = \"4-6,0.1,3,7\""}},
      {"frames", {"--frames " + dir + "/frames.csv", "frames = \"" + dir + "/frames.csv\""}},
      // docs/field.md's field options.
      {"field",
       {"--seidel-field 1,3,1,0.2 --field 0.5,0.25",
        "seidel-field = [\"1,3,1,0.2\"]\nfield = \"0.5,0.25\""}},
      {"field-grid",
       {"--seidel-field 1,3,1,0.2 --field-grid 2,2",
        "seidel-field = [\"1,3,1,0.2\"]\nfield-grid = \"2,2\""}},
      {"field-radius",
       {"--seidel-field 1,3,1,0.2 --field-radius 2arcmin --field 30arcsec,0arcsec",
        "seidel-field = [\"1,3,1,0.2\"]\nfield-radius = \"2arcmin\"\n"
        "field = \"30arcsec,0arcsec\""}},
      {"seidel-field",
       {"--seidel-field 2,2,2,0.3 --field 0.5,0.5",
        "seidel-field = [\"2,2,2,0.3\"]\nfield = \"0.5,0.5\""}},
      {"double-zernike",
       {"--double-zernike 2,4,0.3 --field 0.5,0",
        "double-zernike = [\"2,4,0.3\"]\nfield = \"0.5,0\""}},
      {"field-table",
       {"--field-table " + dir + "/field.csv --field 0.2,0.1",
        "field-table = \"" + dir + "/field.csv\"\nfield = \"0.2,0.1\""}},
      {"crop", {"--crop 64", "crop = 64"}},
      {"repeat", {"--repeat 2", "repeat = 2"}},
      {"chunk-frames", {"--chunk-frames 1", "chunk-frames = 1"}},
      {"compression", {"--compression deflate:6", "compression = \"deflate:6\""}},
      // docs/spec.md §7: the aperture and the pupil maps.
      {"spiders", {"--spiders 4,0.05,30", "spiders = \"4,0.05,30\""}},
      {"hex-segments", {"--hex-segments 1,0.02", "hex-segments = \"1,0.02\""}},
      {"pupil-amplitude",
       {"--pupil-amplitude " + amplitude, "pupil-amplitude = \"" + amplitude + "\""}},
      {"pupil-opd", {"--pupil-opd " + opd, "pupil-opd = \"" + opd + "\""}},
      {"opd-units",
       {"--pupil-opd " + opd + " --opd-units nm --wavelength 500nm",
        "pupil-opd = \"" + opd + "\"\nopd-units = \"nm\"\nwavelength = \"500nm\""}},
      // docs/spec.md §6: each key with the companions it needs, given alike on both sides.
      {"wavelength", {"--wavelength 550nm", "wavelength = \"550nm\""}},
      {"fnumber",
       {"--fnumber 20 --pixel-pitch 6um --wavelength 500nm",
        "fnumber = 20\npixel-pitch = \"6um\"\nwavelength = \"500nm\""}},
      {"pixel-pitch",
       {"--pixel-pitch 4um --fnumber 16 --wavelength 0.5um",
        "pixel-pitch = \"4um\"\nfnumber = 16\nwavelength = \"0.5um\""}},
      {"diameter",
       {"--diameter 2m --pixel-scale 0.03arcsec --wavelength 600nm",
        "diameter = \"2m\"\npixel-scale = \"0.03arcsec\"\nwavelength = \"600nm\""}},
      {"pixel-scale", {"--pixel-scale 0.4lod", "pixel-scale = \"0.4lod\""}},
      {"wavelengths",
       {"--wavelengths 500nm:1,600nm:2 --pixel-scale 0.5lod --crop 16",
        "wavelengths = \"500nm:1,600nm:2\"\npixel-scale = \"0.5lod\"\ncrop = 16"}},
      {"band",
       {"--band 500nm-600nm,3 --pixel-scale 0.5lod --crop 16",
        "band = \"500nm-600nm,3\"\npixel-scale = \"0.5lod\"\ncrop = 16"}},
      {"aberration-units",
       {"--aberration-units nm --wavelength 500nm --zernike 4,50",
        "aberration-units = \"nm\"\nwavelength = \"500nm\"\nzernike = [\"4,50\"]"}},
      {"propagation", {"--propagation mft --crop 15", "propagation = \"mft\"\ncrop = 15"}},
      {"oversample", {"--oversample 3 --crop 16", "oversample = 3\ncrop = 16"}},
      {"jitter", {"--jitter 0.2lod", "jitter = \"0.2lod\""}},
      {"source-offset", {"--source-offset 1lod,-0.5lod", "source-offset = \"1lod,-0.5lod\""}},
      {"defocus-distance",
       {"--defocus-distance 0.5mm --fnumber 20 --wavelength 1um",
        "defocus-distance = \"0.5mm\"\nfnumber = 20\nwavelength = \"1um\""}},
      {"photons", {"--photons 1000", "photons = 1000"}},
      {"background", {"--photons 1000 --background 3", "photons = 1000\nbackground = 3"}},
      {"read-noise", {"--photons 1000 --read-noise 2", "photons = 1000\nread-noise = 2"}},
      {"noise-seed", {"--photons 1000 --noise-seed 9", "photons = 1000\nnoise-seed = 9"}},
      // docs/spec.md §7's metrics: a dropped --store frames would bring /metrics back.
      {"metrics", {"--metrics strehl,ee", "metrics = \"strehl,ee\""}},
      {"ee-radii", {"--metrics ee --ee-radii 1,2", "metrics = \"ee\"\nee-radii = \"1,2\""}},
      {"mtf-frequencies",
       {"--metrics mtf --mtf-frequencies 0.5", "metrics = \"mtf\"\nmtf-frequencies = \"0.5\""}},
      {"store", {"--metrics strehl --store frames", "metrics = \"strehl\"\nstore = \"frames\""}},
      {"contrast-radii",
       {"--metrics contrast --contrast-radii 3,4",
        "metrics = \"contrast\"\ncontrast-radii = \"3,4\""}},
      // docs/coronagraphy.md's optical trains.
      {"coronagraph", {"--coronagraph lyot:3", "coronagraph = \"lyot:3\""}},
      {"lyot-stop",
       {"--coronagraph lyot:3 --lyot-stop 0.9,0.2",
        "coronagraph = \"lyot:3\"\nlyot-stop = \"0.9,0.2\""}},
      {"lyot-spiders",
       {"--coronagraph lyot:3 --lyot-stop 0.9 --lyot-spiders 4,0.02",
        "coronagraph = \"lyot:3\"\nlyot-stop = \"0.9\"\nlyot-spiders = \"4,0.02\""}},
      {"mask-sampling",
       {"--coronagraph lyot:3 --mask-sampling 8", "coronagraph = \"lyot:3\"\nmask-sampling = 8"}},
      {"plane",
       {"--plane focal:vortex:4 --plane pupil:0.9", "plane = [\"focal:vortex:4\", \"pupil:0.9\"]"}},
  };
}

// Options that are not keys with an effect on the file, and why.
const std::set<std::string> not_in_the_file{
    "help",    // not a key
    "config",  // the config file itself (the main app's -c, listed in run's help)
    "output",  // where the file goes: checked below by writing through the key
    "force",   // checked below against an existing file
    "quiet",   // only changes the terminal; tests/check_progress.py checks it
};

std::set<std::string> run_options_from_help() {
  const auto help = run_psfsim("run --help");
  EXPECT_EQ(help.exit_code, 0) << help.stderr_text;
  std::set<std::string> names;
  // Option lines start with spaces, then "-o,--output" or "--samples".
  std::istringstream lines(help.stdout_text);
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find_first_not_of(' ');
    if (first == 0 || first == std::string::npos || line[first] != '-') continue;
    const auto dashes = line.find("--", first);
    if (dashes == std::string::npos || dashes > first + 3) continue;
    const auto end = line.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-", dashes + 2);
    names.insert(line.substr(dashes + 2, end - dashes - 2));
  }
  // The reading of --help itself: options from its start, middle and end.
  for (const char* known : {"output", "samples", "seidel", "quiet"})
    EXPECT_EQ(names.count(known), 1u) << "--" << known << " not found in --help";
  return names;
}

// The file minus what differs between any two runs: when, where, how long.
H5Snapshot content_of(const std::string& path) {
  H5Snapshot s = read_h5(path);
  for (auto it = s.datasets.begin(); it != s.datasets.end();)
    it = it->first.rfind("/timings/", 0) == 0 ? s.datasets.erase(it) : std::next(it);
  s.attributes.erase("/@created_utc");
  s.attributes.erase("/@command_line");
  std::string& config = s.attributes["/@config"];
  const auto output = config.find("output = ");
  if (output != std::string::npos) config.erase(output, config.find('\n', output) + 1 - output);
  return s;
}

std::string run_to(const std::string& args, const std::string& out) {
  const auto r = run_psfsim(args + " --quiet -o " + out);
  EXPECT_EQ(r.exit_code, 0) << "psfsim " << args << ": " << r.stderr_text;
  return out;
}

TEST(ConfigKeys, EveryRunOptionActsTheSameFromAConfigFile) {
  const std::string dir = temp_dir() + "/config-keys";
  fs::create_directories(dir);
  const auto cases = key_cases(dir);
  // FFTW_ESTIMATE plans alike in every process; other efforts measure, and may round the
  // last bit differently from run to run, so frames are compared to single precision.
  const std::string base = "run --backend cpu --samples 32 --fft-effort estimate";
  std::map<std::string, H5Snapshot> runs_without;  // by shared options

  for (const std::string& key : run_options_from_help()) {
    if (not_in_the_file.count(key) != 0) continue;
    SCOPED_TRACE("key " + key);
    const auto c = cases.find(key);
    ASSERT_NE(c, cases.end()) << "`psfsim run --help` lists --" << key
                              << " but this test has no value for it: add one to key_cases()";
    // The key under test is left out of the shared options, so it cannot be overridden.
    std::string shared = base;
    if (key == "backend") shared = "run --samples 32 --fft-effort estimate";
    if (key == "samples") shared = "run --backend cpu --fft-effort estimate";
    if (key == "fft-effort") shared = "run --backend cpu --samples 32";
    if (runs_without.count(shared) == 0)
      runs_without[shared] = content_of(run_to(shared, dir + "/" + key + "-without.h5"));
    const H5Snapshot& without = runs_without[shared];
    const std::string config = dir + "/" + key + ".toml";
    std::ofstream(config) << "[run]\n" << c->second.toml << "\n";
    const H5Snapshot from_file =
        content_of(run_to(shared + " -c " + config, dir + "/" + key + "-file.h5"));
    const H5Snapshot from_cli =
        content_of(run_to(shared + " " + c->second.cli, dir + "/" + key + "-cli.h5"));
    EXPECT_EQ(from_file.shapes, from_cli.shapes);
    for (const auto& [name, values] : from_cli.datasets) {
      const auto same = from_file.datasets.find(name);
      ASSERT_NE(same, from_file.datasets.end()) << name << " missing from the configured run";
      if (name == "/psf")
        EXPECT_LE(relative_l2(same->second, values), batching_tolerance(Precision::single));
      else EXPECT_EQ(same->second, values) << name;
    }
    EXPECT_EQ(from_file.attributes, from_cli.attributes);
    // The value is one the file shows, so a key dropped on the way would be seen.
    const bool same_frames =
        from_cli.shapes == without.shapes &&
        relative_l2(from_cli.datasets.at("/psf"), without.datasets.at("/psf")) < 1e-3;
    EXPECT_FALSE(same_frames && from_cli.attributes == without.attributes)
        << "--" << key << " changes nothing in the file: pick a value that does";
  }
}

// Every key whose value is a comma-separated list or tuple also takes a TOML array, its
// items joined with commas: the file equals the one the comma string gives, effective
// configuration included. Each case: the array form, the comma form, shared companions.
struct ArrayCase {
  std::string key;
  std::string array;
  std::string comma;
  std::string companions;
};

TEST(ConfigKeys, ListKeysTakeArraysLikeTheirCommaStrings) {
  const std::string dir = fresh_dir("config-arrays");
  const std::string spectrum = "pixel-scale = \"0.5lod\"\ncrop = 16\n";
  const std::vector<ArrayCase> cases{
      {"wavelengths", "[\"500nm:1\", \"600nm:2\"]", "\"500nm:1,600nm:2\"", spectrum},
      // An array may span lines, with comments and a trailing comma.
      {"wavelengths",
       "[  # blue to red\n  \"500nm:1\",\n  \"550nm\",  # weighs 1\n"
       "  \"600nm:2\",\n]",
       "\"500nm:1,550nm,600nm:2\"", spectrum},
      {"band", "[\"500nm-600nm\", 3]", "\"500nm-600nm,3\"", spectrum},
      {"metrics", "[\"strehl\", \"ee\", \"fwhm\"]", "\"strehl,ee,fwhm\"", ""},
      {"ee-radii", "[1.0, 2, 3.5]", "\"1.0,2,3.5\"", "metrics = [\"ee\"]\n"},
      {"mtf-frequencies", "[0.25, 0.5]", "\"0.25,0.5\"", "metrics = \"mtf\"\n"},
      {"spiders", "[4, 0.05, 30]", "\"4,0.05,30\"", ""},
      {"hex-segments", "[1, 0.02, \"nocenter\"]", "\"1,0.02,nocenter\"", ""},
      {"vary", "[\"Z4\", -1, 1, 3]", "\"Z4,-1,1,3\"", ""},
      {"random", "[\"4-6\", 0.1, 3, 7]", "\"4-6,0.1,3,7\"", ""},
      {"field", "[0.5, -0.25]", "\"0.5,-0.25\"", "seidel-field = [\"1,3,1,0.2\"]\n"},
      {"field-grid", "[3, 2, 0.5]", "\"3,2,0.5\"", "seidel-field = [\"1,3,1,0.2\"]\n"},
  };
  // --wisdom none: the tests' runs share one wisdom cache and run side by side, and a plan that
  // another test adds between the two runs could change the last bits of the second.
  const std::string base = "run --backend cpu --samples 32 --fft-effort estimate --wisdom none";
  int n = 0;
  for (const ArrayCase& c : cases) {
    SCOPED_TRACE("key " + c.key + " = " + c.array);
    const std::string stem = dir + "/" + std::to_string(n++) + "-" + c.key;
    write_text(stem + "-array.toml", "[run]\n" + c.companions + c.key + " = " + c.array + "\n");
    write_text(stem + "-comma.toml", "[run]\n" + c.companions + c.key + " = " + c.comma + "\n");
    const H5Snapshot from_array =
        content_of(run_to(base + " -c " + stem + "-array.toml", stem + "-array.h5"));
    const H5Snapshot from_comma =
        content_of(run_to(base + " -c " + stem + "-comma.toml", stem + "-comma.h5"));
    EXPECT_EQ(from_array.shapes, from_comma.shapes);
    EXPECT_EQ(from_array.datasets, from_comma.datasets);
    EXPECT_EQ(from_array.attributes, from_comma.attributes);
  }

  // The sweep's metric keys alike: the recorded [sweep] table is the same.
  const auto sweep_config = [&](const std::string& name, const std::string& lists) {
    write_text(dir + "/" + name + ".toml",
               "[sweep]\nbackends = [\"cpu\"]\nsizes = [16]\n"
               "repeat = 1\n" +
                   lists);
    const std::string out = dir + "/" + name + ".h5";
    const auto r = run_psfsim("sweep --quiet -c " + dir + "/" + name + ".toml -o " + out);
    EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
    std::string config = read_h5(out).attributes.at("/@config");
    config.erase(config.find("output = "));
    return config;
  };
  const std::string from_arrays =
      sweep_config("sweep-arrays", "metrics = [\"strehl\", \"ee\"]\nee-radii = [1, 2]\n");
  EXPECT_NE(from_arrays.find("metrics = \"strehl,ee\""), std::string::npos) << from_arrays;
  EXPECT_EQ(from_arrays,
            sweep_config("sweep-commas", "metrics = \"strehl,ee\"\nee-radii = \"1,2\"\n"));
}

TEST(ConfigKeys, RepeatAndTimingKeysReachTimings) {
  const std::string dir = temp_dir() + "/config-timings";
  fs::create_directories(dir);
  std::ofstream(dir + "/c.toml") << "[run]\nrepeat = 3\n";
  const H5Snapshot s =
      read_h5(run_to("run --backend cpu --samples 16 -c " + dir + "/c.toml", dir + "/t.h5"));
  EXPECT_EQ(s.datasets.at("/timings/total").size(), 3u);
}

TEST(ConfigKeys, OutputAndForceWorkFromAConfigFile) {
  const std::string dir = temp_dir() + "/config-output";
  fs::create_directories(dir);
  const std::string out = dir + "/from-config.h5";
  std::ofstream(dir + "/c.toml") << "[run]\noutput = \"" << out << "\"\nsamples = 16\n";
  auto r = run_psfsim("run --backend cpu --quiet -c " + dir + "/c.toml");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(fs::exists(out));
  r = run_psfsim("run --backend cpu --quiet -c " + dir + "/c.toml");
  EXPECT_EQ(r.exit_code, 2) << "an existing output was overwritten without force";
  std::ofstream(dir + "/f.toml") << "[run]\noutput = \"" << out
                                 << "\"\nsamples = 16\nforce = true\n";
  r = run_psfsim("run --backend cpu --quiet -c " + dir + "/f.toml");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
}

// docs/spec.md §2: the command line overrides the file, also where the file's key and the command
// line's option exclude each other: the command line's side is taken, the file's dropped.
TEST(ConfigKeys, TheCommandLineOverridesAnExclusiveKeyOfTheFile) {
  const std::string dir = fresh_dir("config-exclusive");
  std::ofstream(dir + "/c.toml") << "[run]\nsamples = 32\npad-factor = 3\n"
                                    "vary = \"Z4,-1,1,3\"\n";
  const auto m_of = [](const H5Snapshot& s) {
    return std::stod(s.attributes.at("/psf@padded_size"));
  };
  const H5Snapshot file = read_h5(run_to("run --backend cpu -c " + dir + "/c.toml", dir + "/a.h5"));
  EXPECT_EQ(m_of(file), 96);
  const H5Snapshot over = read_h5(run_to("run --backend cpu -c " + dir +
                                             "/c.toml --padded-size 100 --random "
                                             "4-6,0.1,2,7",
                                         dir + "/b.h5"));
  EXPECT_EQ(m_of(over), 100);
  EXPECT_EQ(over.shapes.at("/psf"), (std::vector<unsigned long long>{2, 100, 100}));
  // Both on the command line is still the error it is.
  const auto both = run_psfsim("run --backend cpu -c " + dir +
                               "/c.toml --padded-size 100 "
                               "--pad-factor 2 -o " +
                               dir + "/c.h5");
  EXPECT_EQ(both.exit_code, 2) << both.stderr_text;
  // The recorded configuration (which names padded-size) fed back with --pad-factor.
  std::ofstream(dir + "/again.toml") << file.attributes.at("/@config");
  const H5Snapshot again =
      read_h5(run_to("run -c " + dir + "/again.toml --pad-factor 2 --force", dir + "/a.h5"));
  EXPECT_EQ(m_of(again), 64);
}

// The effective configuration a file records (root attribute `config`) reads back as a
// config file and reproduces the run; for the sweep too. Strings with quotes and
// backslashes, and numbers needing every digit, survive the trip.
TEST(ConfigKeys, RecordedConfigurationReadsBackAndReproducesTheRun) {
  const std::string dir = fresh_dir("config-round-trip");
  const std::string odd = dir + "/we\"ird\\name.h5";
  const auto first = run_psfsim(
      "run --backend cpu --samples 24 --obscuration 0.1234567890123 "
      "--zernike 4,0.3000000000000001 --crop 31 --quiet -o '" +
      odd + "'");
  ASSERT_EQ(first.exit_code, 0) << first.stderr_text;
  const H5Snapshot original = read_h5(odd);
  std::ofstream(dir + "/again.toml") << original.attributes.at("/@config");
  const auto again = run_psfsim("run -c " + dir + "/again.toml --force --quiet");
  ASSERT_EQ(again.exit_code, 0) << again.stderr_text << original.attributes.at("/@config");
  const H5Snapshot rerun = read_h5(odd);  // the recorded output path, quotes and all
  EXPECT_EQ(rerun.datasets.at("/psf"), original.datasets.at("/psf"));
  EXPECT_EQ(rerun.attributes.at("/psf@obscuration"), original.attributes.at("/psf@obscuration"));

  const std::string sweep_out = dir + "/sw\"eep.h5";
  const auto sweep = run_psfsim(
      "sweep --backends cpu --sizes 16,24 --batch 1,3 --repeat 2 "
      "--pad-factor 2.5 --quiet -o '" +
      sweep_out + "'");
  ASSERT_EQ(sweep.exit_code, 0) << sweep.stderr_text;
  std::ofstream(dir + "/sweep.toml") << read_h5(sweep_out).attributes.at("/@config");
  const auto sweep_again = run_psfsim("sweep -c " + dir + "/sweep.toml --force --quiet");
  ASSERT_EQ(sweep_again.exit_code, 0) << sweep_again.stderr_text;
  EXPECT_EQ(read_h5(sweep_out).shapes.at("/sweep"), (std::vector<unsigned long long>{4}));
}

}  // namespace
}  // namespace psfsim::test

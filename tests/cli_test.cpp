// The psfsim binary from the outside: bad input exits 2 with one named error line and no
// file; config files really arrive; an existing output is kept without --force.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "psfsim/builtin_backends.hpp"
#include "test_support.hpp"

namespace psfsim::test {
namespace {
namespace fs = std::filesystem;

struct BadInput {
  std::string name;
  std::string args;     // the output option is appended
  std::string mention;  // the error line must contain this
};

void PrintTo(const BadInput& b, std::ostream* os) { *os << "psfsim " << b.args; }

class CliRejects : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliRejects, WithExit2OneNamedLineAndNoFile) {
  const BadInput& bad = GetParam();
  const std::string dir = fresh_dir("reject-" + bad.name);
  std::string args = bad.args;
  if (args.find("-o ") == std::string::npos) args += " -o " + dir + "/out.h5";
  const auto result = run_psfsim(args);
  EXPECT_EQ(result.exit_code, 2) << result.stderr_text;
  EXPECT_EQ(result.stderr_text.rfind("psfsim: error: ", 0), 0u) << result.stderr_text;
  EXPECT_EQ(std::count(result.stderr_text.begin(), result.stderr_text.end(), '\n'), 1)
      << result.stderr_text;
  EXPECT_NE(result.stderr_text.find(bad.mention), std::string::npos) << result.stderr_text;
  EXPECT_TRUE(folder_is_empty_of_outputs(dir));
}

std::vector<BadInput> bad_inputs() {
  const std::string d = temp_dir();
  const std::string unknown_key = write_text(d + "/unknown-key.toml", "[run]\nsampels = 64\n");
  const std::string wrong_type = write_text(d + "/wrong-type.toml", "[run]\nsamples = \"many\"\n");
  // TOML types: a number written as a string, a flag that is not a boolean, an array for one
  // value (CLI11 alone would take each of them).
  const std::string quoted_number = write_text(d + "/quoted-number.toml", "[run]\nsamples = \"64\"\n");
  const std::string flag_text = write_text(d + "/flag-text.toml", "[run]\nforce = \"yes\"\n");
  const std::string flag_number = write_text(d + "/flag-number.toml", "[run]\nquiet = 1\n");
  const std::string one_item = write_text(d + "/one-item.toml", "[run]\nsamples = [48]\n");
  const std::string bad_choice = write_text(d + "/bad-choice.toml", "[run]\ngrid = \"square\"\n");
  const std::string bad_order =
      write_text(d + "/bad-order.toml", "[run]\nzernike-order = \"osa\"\n");
  const std::string short_row = write_text(d + "/short-row.csv", "Z4,Z11\n0.1,0.2\n0.3\n");
  const std::string bad_term = write_text(d + "/bad-term.csv", "Z4,W7\n0.1,0.2\n");
  const std::string bad_number = write_text(d + "/bad-number.csv", "Z4\n0.1\nlots\n");
  const std::string repeated = write_text(d + "/repeated.csv", "# defocus\nZ4, S2_1,Z4\n0.1,0.2,0.3\n");
  const std::string fringe_csv = write_text(d + "/fringe.csv", "Z9,Z38\n0.1,0.2\n");
  // Arrays where the key takes one value: the error names the file and the key.
  const std::string samples_array =
      write_text(d + "/samples-array.toml", "[run]\nsamples = [1, 2]\n");
  const std::string obscuration_array =
      write_text(d + "/obscuration-array.toml", "[run]\nobscuration = [0.1, 0.2]\n");
  const std::string force_array =
      write_text(d + "/force-array.toml", "[run]\nforce = [true, false]\n");
  const std::string sweep_repeat_array =
      write_text(d + "/sweep-repeat-array.toml", "[sweep]\nrepeat = [1, 2]\n");
  const std::string empty_list = write_text(d + "/empty-list.toml", "[run]\nmetrics = []\n");
  const std::string unclosed =
      write_text(d + "/unclosed.toml", "[run]\nzernike = [\n  \"4,0.1\",\n");
  const std::string empty_terms = write_text(d + "/empty-terms.toml", "[run]\nzernike = [ ]\n");
  const std::string bad_list_item =
      write_text(d + "/bad-list-item.toml", "[run]\nmetrics = [\"strehl\", \"sharpness\"]\n");
  return {
      {"unknown_option", "run --bogus 3", "--bogus"},
      {"wrong_type", "run --samples abc", "--samples"},
      {"fractional_samples", "run --samples 12.5", "--samples"},
      {"samples_below_2", "run --samples 1", "--samples"},
      {"samples_negative", "run --samples -5", "--samples"},
      {"samples_overflow", "run --samples 99999999999", "--samples"},
      {"samples_absurd", "run --samples 16384 --pad-factor 4", "memory"},
      {"pad_factor_below_1", "run --pad-factor 0.5", "--pad-factor"},
      {"pad_factor_infinite", "run --pad-factor inf", "--pad-factor"},
      {"padded_below_samples", "run --samples 128 --padded-size 100", "--padded-size"},
      {"crop_above_padded", "run --samples 64 --crop 129 --propagation fft", "--crop"},
      {"noll_below_1", "run --zernike 0,0.1", "--zernike"},
      {"zernike_nan", "run --zernike 4,nan", "--zernike"},
      {"seidel_inf", "run --seidel 2,1,inf", "--seidel"},
      {"seidel_malformed", "run --seidel 2,1", "--seidel"},
      {"obscuration_nan", "run --obscuration nan", "--obscuration"},
      {"obscuration_one", "run --obscuration 1", "--obscuration"},
      {"obscuration_negative", "run --obscuration -0.1", "--obscuration"},
      {"bad_precision", "run --precision half", "--precision"},
      {"missing_output", "run --samples 64 -o ''", "--output"},
      {"missing_config", "run -c " + d + "/no-such.toml", "no-such.toml"},
      {"config_is_folder", "run -c " + d, d},
      {"config_unknown_key", "run -c " + unknown_key, "sampels"},
      {"config_wrong_type", "run -c " + wrong_type, "samples"},
      {"config_quoted_number", "run -c " + quoted_number, "[run] samples: takes a number"},
      {"config_flag_text", "run -c " + flag_text, "[run] force: takes true or false"},
      {"config_flag_number", "run -c " + flag_number, "[run] quiet: takes true or false"},
      {"config_one_item_array", "run -c " + one_item, "[run] samples: takes one value"},
      {"config_bad_choice", "run -c " + bad_choice, "--grid"},
      {"no_command", "", "command"},
      {"unknown_command", "bogus --samples 3", "unknown command 'bogus'"},
      {"sweep_size_below_2", "sweep --sizes 0", "--sizes 0"},
      {"csv_missing_column", "run --frames " + short_row, "short-row.csv:3"},
      {"csv_unknown_term", "run --frames " + bad_term, "bad-term.csv:1"},
      {"csv_not_a_number", "run --frames " + bad_number, "bad-number.csv:3"},
      {"csv_missing_file", "run --frames " + d + "/none.csv", "none.csv"},
      {"csv_without_line_ends", "run --frames /dev/zero", "/dev/zero:1: a line longer than 1 MiB"},
      {"csv_repeated_term", "run --frames " + repeated, "repeated.csv:2: the header names Z4 twice"},
      {"vary_malformed", "run --vary Z4,0,1", "--vary"},
      {"random_malformed", "run --random 4-15,0.1,10", "--random"},
      {"two_batch_sources", "run --vary Z4,0,1,3 --random 4-5,0.1,3,1", "at most one"},
      {"chunk_negative", "run --chunk-frames -1", "--chunk-frames"},
      {"bad_fft_effort", "run --fft-effort hard", "--fft-effort"},
      {"sweep_bad_fft_effort", "sweep --fft-effort hard", "--fft-effort"},
      // SPEC §6: units, the physical pixel scale, spectra, propagation and the detector.
      {"wavelength_bare_number", "run --wavelength 550", "nm, um, mm or m"},
      {"wavelength_unknown_unit", "run --wavelength 550nn", "--wavelength"},
      {"wavelength_negative", "run --wavelength -5nm", "--wavelength"},
      {"pixel_scale_bare", "run --pixel-scale 0.1", "--pixel-scale"},
      {"fnumber_without_pitch", "run --wavelength 1um --fnumber 10", "--pixel-pitch"},
      {"pitch_without_wavelength", "run --fnumber 10 --pixel-pitch 5um", "wavelength"},
      {"pixel_scale_angle_without_diameter", "run --wavelength 1um --pixel-scale 10mas",
       "--diameter"},
      {"physical_with_pad_factor", "run --pixel-scale 0.3lod --pad-factor 3", "--pad-factor"},
      {"spectrum_without_pixel_scale", "run --band 500nm-600nm,3", "physical pixel scale"},
      {"two_spectra", "run --band 500nm-600nm,3 --wavelengths 500nm --pixel-scale 0.5lod",
       "--wavelengths and --band"},
      {"band_reversed", "run --band 600nm-500nm,3 --pixel-scale 0.5lod", "--band"},
      {"opd_without_wavelength", "run --aberration-units nm --zernike 4,50",
       "--aberration-units"},
      {"fft_with_oversample", "run --oversample 2 --propagation fft", "--propagation fft"},
      {"fft_at_a_scale_without_m", "run --pixel-scale 0.37lod --propagation fft",
       "no integer padded size"},
      {"oversample_zero", "run --oversample 0", "--oversample"},
      {"jitter_angle_without_diameter", "run --jitter 5mas", "--jitter"},
      {"photons_zero", "run --photons 0", "--photons"},
      {"read_noise_without_photons", "run --read-noise 3", "--photons"},
      {"noise_seed_without_photons", "run --noise-seed 5", "--photons"},
      {"store_both_without_metrics", "run --store both", "--metrics"},
      {"bad_propagation", "run --propagation dft", "--propagation"},
      {"sweep_bad_size", "sweep --sizes 64,1", "--sizes 1"},
      {"sweep_bad_batch", "sweep --sizes 16 --batch 0", "--batch"},
      {"sweep_unknown_backend", "sweep --backends gpu", "--backends"},
      {"unknown_backend", "run --backend gpu", "--backend"},
      {"device_negative", "run --device -1", "--device"},
      {"threads_negative", "run --threads -1", "--threads"},
      {"repeat_zero", "run --repeat 0", "--repeat"},
      {"padded_size_too_large", "run --padded-size 70000", "--padded-size"},
      {"pad_factor_and_padded_size", "run --pad-factor 2 --padded-size 256", "--padded-size"},
      {"compression_unknown", "run --compression gzip", "--compression gzip"},
      {"compression_level", "run --compression deflate:12", "--compression deflate:12"},
      {"compression_lz4_level", "run --compression lz4:3", "--compression lz4:3"},
      {"zero_aperture", "run --samples 2 --grid linspace --backend cpu", "--obscuration"},
      {"sweep_zero_aperture", "sweep --sizes 2 --grid linspace --backends cpu", "aperture"},
      // SPEC §7: apertures and pupil maps (tests/aperture_test.cpp checks the file errors).
      {"spiders_malformed", "run --spiders 4", "--spiders"},
      {"spiders_too_wide", "run --spiders 3,1.5", "--spiders"},
      {"hex_unknown_flag", "run --hex-segments 2,0.01,center", "--hex-segments"},
      {"hex_gaps_fill_the_pupil", "run --hex-segments 3,0.4", "--hex-segments"},
      {"hex_no_segment", "run --hex-segments 0,0.01,nocenter", "--hex-segments"},
      {"pupil_map_missing", "run --pupil-amplitude " + d + "/no-map.npy", "no-map.npy"},
      {"pupil_map_not_a_map", "run --pupil-opd " + short_row, "short-row.csv: not an HDF5"},
      {"opd_units_without_wavelength", "run --pupil-opd " + short_row + " --opd-units um",
       "--opd-units um"},
      {"bad_opd_units", "run --opd-units mm", "--opd-units"},
      // SPEC §7: Zernike orderings.
      {"zernike_order_unknown", "run --zernike-order zemax", "--zernike-order"},
      {"zernike_norm_unknown", "run --zernike-norm peak", "--zernike-norm"},
      {"fringe_index_38", "run --zernike-order fringe --zernike 38,0.1",
       "--zernike '38,0.1': Fringe indices run from 1 to 37"},
      {"ansi_index_negative", "run --zernike-order ansi --zernike=-1,0.1",
       "ANSI indices run from 0 to 324"},
      {"noll_index_above_325", "run --zernike-norm unit --zernike 326,0.1",
       "Noll indices run from 1 to 325"},
      {"fringe_vary_38", "run --zernike-order fringe --vary Z38,0,1,3",
       "--vary 'Z38,0,1,3': the Fringe index of 'Z38'"},
      {"fringe_random_range", "run --zernike-order fringe --random 30-40,0.1,3,1",
       "JMAX, a Fringe index"},
      {"fringe_csv_header", "run --zernike-order fringe --frames " + fringe_csv,
       "fringe.csv:1: the Fringe index of 'Z38'"},
      {"sweep_fringe_index", "sweep --zernike-order fringe --zernike 40,0.1",
       "Fringe indices run from 1 to 37"},
      {"config_bad_zernike_order", "run -c " + bad_order, "--zernike-order"},
      {"config_scalar_array", "run -c " + samples_array, "samples-array.toml: [run] samples"},
      {"config_number_array", "run -c " + obscuration_array,
       "obscuration-array.toml: [run] obscuration"},
      {"config_flag_array", "run -c " + force_array, "force-array.toml: [run] force"},
      {"config_sweep_scalar_array", "sweep -c " + sweep_repeat_array,
       "sweep-repeat-array.toml: [sweep] repeat"},
      {"config_empty_list", "run -c " + empty_list, "empty-list.toml: [run] metrics"},
      {"config_unclosed_array", "run -c " + unclosed, "unclosed.toml: zernike"},
      {"config_empty_terms", "run -c " + empty_terms, "empty-terms.toml: [run] zernike"},
      // A list's items are checked as its comma string's are.
      {"config_bad_list_item", "run -c " + bad_list_item, "sharpness"},
  };
}

INSTANTIATE_TEST_SUITE_P(BadInputs, CliRejects, ::testing::ValuesIn(bad_inputs()),
                         [](const auto& info) { return info.param.name; });

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(Cli, ExistingOutputIsKeptByteIdenticalWithoutForce) {
  const std::string dir = fresh_dir("keep");
  const std::string out = dir + "/out.h5";
  write_text(out, "precious bytes\n");
  const auto result = run_psfsim("run --samples 16 --backend cpu -o " + out);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.stderr_text.find("--force"), std::string::npos) << result.stderr_text;
  EXPECT_EQ(file_bytes(out), "precious bytes\n");
  const auto forced = run_psfsim("run --samples 16 --backend cpu --force -o " + out);
  EXPECT_EQ(forced.exit_code, 0) << forced.stderr_text;
  EXPECT_NE(file_bytes(out), "precious bytes\n");
}

TEST(Cli, ConfigValuesArriveAndTheCommandLineOverridesThem) {
  const std::string dir = fresh_dir("config");
  const std::string cfg = write_text(dir + "/c.toml",
                                     "[run]\nsamples = 32\npad-factor = 3\nbackend = \"cpu\"\n"
                                     "zernike = [\"4,0.1\", \"11,0.05\"]\nprecision = \"double\"\n");
  auto r = run_psfsim("run -c " + cfg + " -o " + dir + "/a.h5");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("1 x 96 x 96 float64"), std::string::npos) << r.stdout_text;
  r = run_psfsim("run -c " + cfg + " --samples 16 --precision single -o " + dir + "/b.h5");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("1 x 48 x 48 float32"), std::string::npos) << r.stdout_text;
}

// SPEC §2 lists --config/-c FILE among run's options: the help of run and sweep lists it
// there, though the main app parses it (and -c still reads the command's table).
TEST(Cli, RunAndSweepHelpListTheConfigOption) {
  for (const std::string command : {"run", "sweep"}) {
    const auto r = run_psfsim(command + " --help");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    std::istringstream lines(r.stdout_text);
    int listed = 0;
    for (std::string line; std::getline(lines, line);) {
      const auto first = line.find_first_not_of(' ');
      if (first == 0 || first == std::string::npos || line.compare(first, 16, "-c,--config FILE") != 0)
        continue;
      ++listed;
      EXPECT_NE(line.find("[" + command + "] table"), std::string::npos) << line;
    }
    EXPECT_EQ(listed, 1) << command << " --help:\n" << r.stdout_text;
    // Among the options: -h first, then -c, then the command's own.
    EXPECT_LT(r.stdout_text.find("--help"), r.stdout_text.find("-c,--config"));
    EXPECT_LT(r.stdout_text.find("-c,--config"), r.stdout_text.find("-o,--output"));
  }
  const auto main_help = run_psfsim("--help");
  EXPECT_NE(main_help.stdout_text.find("-c,--config FILE"), std::string::npos)
      << main_help.stdout_text;
}

TEST(Cli, ExampleConfigsRun) {
  const std::string dir = fresh_dir("examples");
  int seen = 0;
  for (const auto& e : fs::directory_iterator(fs::path(PSFSIM_SOURCE_DIR) / "configs")) {
    if (e.path().extension() != ".toml") continue;
    ++seen;
    const std::string out = dir + "/" + e.path().stem().string() + ".h5";
    const auto r = run_psfsim("run -c " + e.path().string() + " --backend cpu -o " + out);
    EXPECT_EQ(r.exit_code, 0) << e.path() << ": " << r.stderr_text;
    EXPECT_TRUE(fs::exists(out)) << e.path();
  }
  EXPECT_GE(seen, 3);
}

TEST(Cli, UnusableCudaBackendExits3) {
  const BackendEntry* cuda = builtin_backends().find("cuda");
  if (cuda != nullptr && cuda->unusable_reason().empty())
    GTEST_SKIP() << "a CUDA device is usable here";
  const std::string dir = fresh_dir("cuda");
  const auto r = run_psfsim("run --backend cuda --samples 16 -o " + dir + "/x.h5");
  EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("psfsim: error: --backend cuda"), std::string::npos)
      << r.stderr_text;
  EXPECT_TRUE(folder_is_empty_of_outputs(dir));
  // A sweep whose every backend is unusable is the same runtime failure, with no table.
  const auto sweep = run_psfsim("sweep --backends cuda --sizes 16 -o " + dir + "/s.h5");
  EXPECT_EQ(sweep.exit_code, 3) << sweep.stderr_text;
  EXPECT_EQ(sweep.stderr_text.rfind("psfsim: error: sweep: no backend", 0), 0u) << sweep.stderr_text;
  EXPECT_EQ(std::count(sweep.stderr_text.begin(), sweep.stderr_text.end(), '\n'), 1)
      << sweep.stderr_text;
  EXPECT_TRUE(folder_is_empty_of_outputs(dir));
}

TEST(Cli, InfoListsBackendsAndLibraries) {
  const auto r = run_psfsim("info");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  for (const char* text : {"psfsim ", "commit", "HDF5 ", "FFTW", "cores", "[cpu] usable"})
    EXPECT_NE(r.stdout_text.find(text), std::string::npos) << text << "\n" << r.stdout_text;
}

}  // namespace
}  // namespace psfsim::test

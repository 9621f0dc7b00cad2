// The psfsim binary from the outside: bad input exits 2 with one named error line and no
// file; config files really arrive; an existing output is kept without --force.
#include <gtest/gtest.h>
#include <sys/stat.h>

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
  std::string args;     // the output option is appended (to run and sweep)
  std::string mention;  // the error line must contain this
};

void PrintTo(const BadInput& b, std::ostream* os) { *os << "psfsim " << b.args; }

class CliRejects : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliRejects, WithExit2OneNamedLineAndNoFile) {
  const BadInput& bad = GetParam();
  const std::string dir = fresh_dir("reject-" + bad.name);
  std::string args = bad.args;
  const bool writes = args.rfind("run", 0) == 0 || args.rfind("sweep", 0) == 0;
  if (writes && args.find("-o ") == std::string::npos) args += " -o " + dir + "/out.h5";
  const auto result = run_psfsim(args);
  EXPECT_EQ(result.exit_code, 2) << result.stderr_text;
  EXPECT_EQ(result.stderr_text.rfind("psfsim: error: ", 0), 0u) << result.stderr_text;
  EXPECT_EQ(std::count(result.stderr_text.begin(), result.stderr_text.end(), '\n'), 1)
      << result.stderr_text;
  EXPECT_NE(result.stderr_text.find(bad.mention), std::string::npos) << result.stderr_text;
  // Whatever the input held, the line is printable ASCII: no control byte, no raw byte of a
  // binary file (the cases here echo no UTF-8 text).
  for (std::size_t i = 0; i + 1 < result.stderr_text.size(); ++i) {
    const auto c = static_cast<unsigned char>(result.stderr_text[i]);
    EXPECT_TRUE(c >= 0x20 && c < 0x7f)
        << "byte " << int(c) << " at " << i << ": " << result.stderr_text;
  }
  EXPECT_TRUE(folder_is_empty_of_outputs(dir));
}

std::vector<BadInput> bad_inputs() {
  const std::string d = temp_dir();
  const std::string unknown_key = write_text(d + "/unknown-key.toml", "[run]\nsampels = 64\n");
  const std::string wrong_type = write_text(d + "/wrong-type.toml", "[run]\nsamples = \"many\"\n");
  // TOML types: a number written as a string, a flag that is not a boolean, an array for one
  // value (CLI11 alone would take each of them).
  const std::string quoted_number =
      write_text(d + "/quoted-number.toml", "[run]\nsamples = \"64\"\n");
  const std::string flag_text = write_text(d + "/flag-text.toml", "[run]\nforce = \"yes\"\n");
  const std::string flag_number = write_text(d + "/flag-number.toml", "[run]\nquiet = 1\n");
  const std::string one_item = write_text(d + "/one-item.toml", "[run]\nsamples = [48]\n");
  const std::string bad_choice = write_text(d + "/bad-choice.toml", "[run]\ngrid = \"square\"\n");
  const std::string bad_order =
      write_text(d + "/bad-order.toml", "[run]\nzernike-order = \"osa\"\n");
  const std::string short_row = write_text(d + "/short-row.csv", "Z4,Z11\n0.1,0.2\n0.3\n");
  const std::string bad_term = write_text(d + "/bad-term.csv", "Z4,W7\n0.1,0.2\n");
  const std::string bad_number = write_text(d + "/bad-number.csv", "Z4\n0.1\nlots\n");
  const std::string repeated =
      write_text(d + "/repeated.csv", "# defocus\nZ4, S2_1,Z4\n0.1,0.2,0.3\n");
  // A file of zeros with no line end, as /dev/zero would give without being a device.
  const std::string no_line_ends =
      write_text(d + "/no-line-ends.csv", std::string((1u << 20) + 16, '\0'));
  const std::string fringe_csv = write_text(d + "/fringe.csv", "Z9,Z38\n0.1,0.2\n");
  // A FIFO as the config file: read, it would block psfsim until a writer came.
  const std::string fifo_config = d + "/fifo.toml";
  fs::remove(fifo_config);
  if (::mkfifo(fifo_config.c_str(), 0600) != 0) ADD_FAILURE() << "mkfifo " << fifo_config;
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
  // TOML read as TOML 1.0 (toml++): psfsim's own words name the file, the line and the key.
  const auto config = [&](const std::string& name, const std::string& text) {
    return write_text(d + "/" + name + ".toml", text);
  };
  const std::string unknown_table = config("unknown-table", "[foo]\nsamples = 64\n");
  const std::string outside = config("outside", "# comment\nsamples = 64\n[run]\n");
  const std::string fraction = config("fraction", "[run]\nbackend = \"cpu\"\nsamples = 64.5\n");
  const std::string twice = config("twice", "[run]\nsamples = 64\nsamples = 32\n");
  const std::string not_toml = config("not-toml", "[run]\nsamples 64\n");
  const std::string too_big = config("too-big", "[run]\n" + std::string(1 << 20, '#') + "\n");
  const std::string bad_utf8 = config("bad-utf8", "[run]\nwavelength = \"5\xff\xfenm\"\n");
  // A binary file given as the config: its bytes are never echoed.
  const std::string binary = config("binary", std::string("\x7f"
                                                          "ELF\x02\x01\x01\0\0\x1b[31m",
                                                          14));
  const std::string escape = config("escape", "[run]\ngrid = \"a\\u001b[31mb\"\n");
  const std::string threads = config("threads", "[run]\nthreads = 100000\n");
  const std::string number_for_text = config("number-for-text", "[run]\nwavelength = 550\n");
  const std::string seed_negative =
      config("seed-negative", "[run]\nphotons = 10\nnoise-seed = -1\n");
  const std::string seed_exponent =
      config("seed-exponent", "[run]\nphotons = 10\nnoise-seed = 1e23\n");
  const std::string seed_too_big =
      config("seed-too-big", "[run]\nphotons = 10\nnoise-seed = \"18446744073709551616\"\n");
  const std::string seed_integer_too_big =
      config("seed-integer-too-big", "[run]\nphotons = 10\nnoise-seed = 18446744073709551616\n");
  const std::string sweep_unknown = config("sweep-unknown", "[sweep]\nsize = [64]\n");
  const std::string non_ascii = config("non-ascii", "[run]\nsamples = 64\xcf\x8c\n");
  const std::string bom_bad = config("bom-bad", "\xef\xbb\xbf[run]\nsampels = 64\n");
  const std::string bom_csv = write_text(d + "/bom-bad.csv", "\xef\xbb\xbfZ4,W7\n0.1,0.2\n");
  return {
      {"unknown_option", "run --bogus 3", "unknown option '--bogus' for psfsim run"},
      {"wrong_type", "run --samples abc", "--samples: 'abc' must be an integer from 2 to 16384"},
      {"fractional_samples", "run --samples 12.5", "--samples"},
      {"samples_below_2", "run --samples 1", "--samples"},
      {"samples_negative", "run --samples -5", "--samples"},
      {"samples_overflow", "run --samples 99999999999",
       "--samples: '99999999999' must be an integer from 2 to 16384"},
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
      {"bad_precision", "run --precision half", "--precision: 'half' is not one of single, double"},
      {"missing_output", "run --samples 64 -o ''", "--output"},
      {"missing_config", "run -c " + d + "/no-such.toml",
       "--config " + d + "/no-such.toml: no such file"},
      {"config_is_folder", "run -c " + d, "--config " + d + ": a folder, not a config file"},
      {"config_unknown_key", "run -c " + unknown_key,
       "unknown-key.toml line 2: unknown key 'sampels' in [run]; did you mean 'samples'?"},
      {"config_wrong_type", "run -c " + wrong_type,
       "wrong-type.toml line 2: key 'samples' in [run] takes an integer, not the string \"many\""},
      {"config_quoted_number", "run -c " + quoted_number,
       "quoted-number.toml line 2: key 'samples' in [run] takes an integer, not the string \"64\""},
      {"config_flag_text", "run -c " + flag_text,
       "flag-text.toml line 2: key 'force' in [run] takes true or false, not the string"},
      {"config_flag_number", "run -c " + flag_number,
       "flag-number.toml line 2: key 'quiet' in [run] takes true or false, not 1"},
      {"config_one_item_array", "run -c " + one_item,
       "one-item.toml line 2: key 'samples' in [run] takes one value, not the array [48]"},
      {"config_bad_choice", "run -c " + bad_choice,
       "bad-choice.toml line 2: key 'grid' in [run]: 'square' is not one of centered, linspace"},
      {"no_command", "", "command"},
      {"unknown_command", "bogus --samples 3", "unknown command 'bogus'"},
      {"sweep_size_below_2", "sweep --sizes 0", "--sizes: '0' must be an integer from 2 to 16384"},
      {"csv_missing_column", "run --frames " + short_row, "short-row.csv:3"},
      {"csv_unknown_term", "run --frames " + bad_term, "bad-term.csv:1"},
      {"csv_not_a_number", "run --frames " + bad_number, "bad-number.csv:3"},
      {"csv_missing_file", "run --frames " + d + "/none.csv", "none.csv"},
      {"config_fifo", "run -c " + fifo_config, "fifo.toml: is a FIFO, not a config file"},
      {"csv_without_line_ends", "run --frames " + no_line_ends,
       "no-line-ends.csv:1: a line longer than 1 MiB"},
      {"csv_repeated_term", "run --frames " + repeated,
       "repeated.csv:2: the header names Z4 twice"},
      {"vary_malformed", "run --vary Z4,0,1", "--vary"},
      {"random_malformed", "run --random 4-15,0.1,10", "--random"},
      {"two_batch_sources", "run --vary Z4,0,1,3 --random 4-5,0.1,3,1", "at most one"},
      {"chunk_negative", "run --chunk-frames -1", "--chunk-frames"},
      {"bad_fft_effort", "run --fft-effort hard", "--fft-effort"},
      {"sweep_bad_fft_effort", "sweep --fft-effort hard", "--fft-effort"},
      // docs/spec.md §6: units, the physical pixel scale, spectra, propagation and the detector.
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
      {"opd_without_wavelength", "run --aberration-units nm --zernike 4,50", "--aberration-units"},
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
      {"sweep_bad_size", "sweep --sizes 64,1", "--sizes: '1' must be an integer from 2 to 16384"},
      {"sweep_bad_batch", "sweep --sizes 16 --batch 0", "--batch"},
      {"sweep_unknown_backend", "sweep --backends gpu", "--backends"},
      {"unknown_backend", "run --backend gpu", "--backend"},
      {"device_negative", "run --device -1", "--device"},
      {"threads_negative", "run --threads -1", "--threads: '-1' must be an integer from 0 to 4096"},
      {"repeat_zero", "run --repeat 0", "--repeat"},
      {"padded_size_too_large", "run --padded-size 70000", "--padded-size"},
      {"pad_factor_and_padded_size", "run --pad-factor 2 --padded-size 256", "--padded-size"},
      {"compression_unknown", "run --compression gzip", "--compression gzip"},
      {"compression_level", "run --compression deflate:12", "--compression deflate:12"},
      {"compression_lz4_level", "run --compression lz4:3", "--compression lz4:3"},
      {"zero_aperture", "run --samples 2 --grid linspace --backend cpu", "--obscuration"},
      {"sweep_zero_aperture", "sweep --sizes 2 --grid linspace --backends cpu", "aperture"},
      // docs/spec.md §7: apertures and pupil maps (tests/aperture_test.cpp checks the file errors).
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
      // docs/spec.md §7: Zernike orderings.
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
      {"config_bad_zernike_order", "run -c " + bad_order,
       "key 'zernike-order' in [run]: 'osa' is not one of noll, ansi, fringe"},
      {"config_scalar_array", "run -c " + samples_array,
       "samples-array.toml line 2: key 'samples' in [run] takes one value"},
      {"config_number_array", "run -c " + obscuration_array,
       "obscuration-array.toml line 2: key 'obscuration' in [run] takes one value"},
      {"config_flag_array", "run -c " + force_array,
       "force-array.toml line 2: key 'force' in [run] takes one value"},
      {"config_sweep_scalar_array", "sweep -c " + sweep_repeat_array,
       "sweep-repeat-array.toml line 2: key 'repeat' in [sweep] takes one value"},
      {"config_empty_list", "run -c " + empty_list,
       "empty-list.toml line 2: key 'metrics' in [run]: an empty array"},
      {"config_unclosed_array", "run -c " + unclosed,
       "unclosed.toml line 3: not valid TOML: encountered end-of-file (in an array)"},
      {"config_empty_terms", "run -c " + empty_terms,
       "empty-terms.toml line 2: key 'zernike' in [run]: an empty array"},
      // A list's items are checked as its comma string's are.
      {"config_bad_list_item", "run -c " + bad_list_item, "sharpness"},
      {"config_unknown_table", "run -c " + unknown_table,
       "unknown-table.toml line 1: unknown table [foo]: psfsim reads [run] and [sweep]"},
      {"config_key_outside_a_table", "run -c " + outside,
       "outside.toml line 2: key 'samples' is outside a table"},
      {"config_fraction_for_integer", "run -c " + fraction,
       "fraction.toml line 3: key 'samples' in [run] takes an integer, not 64.5"},
      {"config_key_twice", "run -c " + twice,
       "twice.toml line 3: not valid TOML: cannot redefine existing integer 'samples'"},
      {"config_not_toml", "run -c " + not_toml, "not-toml.toml line 2: not valid TOML"},
      {"config_too_big", "run -c " + too_big, "too-big.toml: larger than 1 MiB"},
      {"config_bad_utf8", "run -c " + bad_utf8,
       "bad-utf8.toml line 2: not valid TOML: Encountered invalid utf-8 sequence"},
      {"config_binary", "run -c " + binary, "binary.toml line 1: not valid TOML"},
      {"config_escape_echoed_escaped", "run -c " + escape,
       "escape.toml line 2: key 'grid' in [run]: 'a\\x1b[31mb' is not one of"},
      {"config_threads_bound", "run -c " + threads,
       "key 'threads' in [run]: '100000' must be an integer from 0 to 4096"},
      {"config_number_for_text", "run -c " + number_for_text,
       "key 'wavelength' in [run] takes a string, not 550"},
      {"config_seed_negative", "run -c " + seed_negative,
       "key 'noise-seed' in [run]: '-1' must be a decimal integer from 0 to 18446744073709551615"},
      {"config_seed_exponent", "run -c " + seed_exponent,
       "key 'noise-seed' in [run] takes an integer, not 1e23"},
      {"config_seed_too_big", "run -c " + seed_too_big,
       "'18446744073709551616' must be a decimal integer from 0 to 18446744073709551615"},
      {"config_seed_integer_too_big", "run -c " + seed_integer_too_big,
       "seed-integer-too-big.toml line 3: not valid TOML: '18446744073709551616' is not "
       "representable in 64 bits"},
      {"config_non_ascii_outside_strings", "run -c " + non_ascii,
       "non-ascii.toml line 2: not valid TOML: a non-ASCII character outside a string"},
      {"config_sweep_unknown_key", "sweep -c " + sweep_unknown,
       "unknown key 'size' in [sweep]; did you mean 'sizes'?"},
      // A byte-order mark is read past, in a config and in a CSV file: what follows is what
      // the messages are about.
      {"config_with_bom", "run -c " + bom_bad, "bom-bad.toml line 2: unknown key 'sampels'"},
      {"csv_with_bom", "run --frames " + bom_csv, "bom-bad.csv:1: unknown term 'W7'"},
      // psfsim's words for what CLI11 refuses: each names the option.
      {"option_twice", "run --samples 64 --samples 32",
       "--samples given twice (it takes one value)"},
      {"output_twice", "run -o " + d + "/a.h5 -o " + d + "/b.h5",
       "--output given twice (it takes one value)"},
      {"unknown_option_near_one", "run --sampels 64",
       "unknown option '--sampels' for psfsim run; did you mean --samples?"},
      {"value_missing", "run -o " + d + "/m.h5 --samples", "--samples N: the value is missing"},
      {"extra_argument", "run extra", "unexpected argument 'extra' for psfsim run"},
      {"export_extra_argument", "export " + d + "/a.h5 " + d + "/b.h5 --fits " + d + "/c.fits",
       "unexpected argument '" + d + "/b.h5' for psfsim export"},
      {"export_without_fits", "export " + d + "/a.h5",
       "--fits is required (psfsim export IN.h5 --fits OUT.fits)"},
      {"export_without_input", "export --fits " + d + "/a.fits",
       "the input IN.h5 is required (psfsim export IN.h5 --fits OUT.fits)"},
      {"flag_with_a_value", "run --force=bogus", "--force is a flag"},
      {"choice_listed", "run --grid square", "--grid: 'square' is not one of centered, linspace"},
      {"number_overflows", "run --fnumber 1e400 --pixel-pitch 5um --wavelength 1um",
       "--fnumber: '1e400' is not a finite number"},
      {"control_bytes_escaped", "run --wavelength \"$(printf '5\\033[31mnm')\"",
       "--wavelength '5\\x1b[31mnm'"},
      // Each bound is the real one, its numbers in shortest form.
      {"threads_above_bound", "run --threads 100000",
       "--threads: '100000' must be an integer from 0 to 4096"},
      {"jitter_overflows", "run --jitter 1e308deg --diameter 1m --wavelength 1um",
       "--jitter 1e+308deg: too large: at most 1e+06 lambda/D (57.29577951308232deg at this "
       "wavelength and diameter)"},
      {"jitter_lod_overflows", "run --jitter 1e308lod --samples 16 --backend cpu",
       "--jitter 1e+308lod: too large: at most 1e+06 lambda/D"},
      {"pixel_scale_too_coarse",
       "run --wavelength 1e-300m --pixel-scale 1mas --diameter 1m --samples 16 --backend cpu",
       "a pixel of 4.848136811095359e+291 lambda/D is too coarse: the MFT takes at most "
       "8323580.031007752 lambda/D per pixel on a 128-pixel frame"},
      {"pad_factor_too_large", "run --pad-factor 1e308",
       "--pad-factor 1e+308: too large: at most 512 at --samples 128"},
      {"sweep_pad_factor_below_1", "sweep --pad-factor 0.5",
       "--pad-factor 0.5: must be a finite number >= 1"},
      {"obscuration_shortest", "run --obscuration 1.5", "--obscuration 1.5: must be in [0, 1)"},
      {"ee_radius_overflows", "run --metrics ee --ee-radii 1,1e400",
       "--ee-radii 1,1e400: '1e400' is not a finite number"},
      {"seidel_power_bound", "run --seidel 4000000000,1,0.1", "l must be at most"},
      {"zernike_index_bound", "run --zernike 4000000000,0.1", "Noll indices run from 1 to 325"},
      // --noise-seed takes 0 to 2^64 - 1 as decimal digits: nothing wraps, nothing rounds.
      {"noise_seed_negative", "run --photons 10 --noise-seed=-1",
       "--noise-seed: '-1' must be a decimal integer from 0 to 18446744073709551615"},
      {"noise_seed_2_64", "run --photons 10 --noise-seed 18446744073709551616",
       "--noise-seed: '18446744073709551616' must be a decimal integer"},
      {"noise_seed_exponent", "run --photons 10 --noise-seed 1e23",
       "--noise-seed: '1e23' must be a decimal integer"},
      {"random_seed_2_64", "run --random 4-5,0.1,2,18446744073709551616",
       "SEED must be a decimal integer from 0 to 18446744073709551615"},
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
  const std::string cfg =
      write_text(dir + "/c.toml",
                 "[run]\nsamples = 32\npad-factor = 3\nbackend = \"cpu\"\n"
                 "zernike = [\"4,0.1\", \"11,0.05\"]\nprecision = \"double\"\n");
  auto r = run_psfsim("run -c " + cfg + " -o " + dir + "/a.h5");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("1 x 96 x 96 float64"), std::string::npos) << r.stdout_text;
  r = run_psfsim("run -c " + cfg + " --samples 16 --precision single -o " + dir + "/b.h5");
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("1 x 48 x 48 float32"), std::string::npos) << r.stdout_text;
}

// docs/spec.md §2 lists --config/-c FILE among run's options: the help of run and sweep lists it
// there, though the main app parses it (and -c still reads the command's table).
TEST(Cli, RunAndSweepHelpListTheConfigOption) {
  for (const std::string command : {"run", "sweep"}) {
    const auto r = run_psfsim(command + " --help");
    ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
    std::istringstream lines(r.stdout_text);
    int listed = 0;
    for (std::string line; std::getline(lines, line);) {
      const auto first = line.find_first_not_of(' ');
      if (first == 0 || first == std::string::npos ||
          line.compare(first, 16, "-c,--config FILE") != 0)
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
  EXPECT_EQ(sweep.stderr_text.rfind("psfsim: error: sweep: no backend", 0), 0u)
      << sweep.stderr_text;
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

#pragma once
// Every option of `psfsim run`, `psfsim sweep` and `psfsim export`, declared once: its name
// (also its config key, docs/spec.md §2), the grammar and bounds of its value, its default as
// the help shows it, and its help. The command line (apps/cli), the config reader, the
// effective configuration, the messages that name an option and the Python bindings' keywords
// are all made from this table, so an option is renamed or re-documented in one place. It
// depends on no parser, HDF5 or FITS library.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace psfsim {

// One per row of the table. Options `run` and `sweep` spell alike but define differently
// (sweep's lists of crops and propagations, its own help) have a sweep_ row each.
enum class Option : std::uint8_t {
  // The main app's, listed in `run --help` and `sweep --help` too.
  config,
  // `run`, in the order `psfsim run --help` lists them.
  output,
  force,
  backend,
  precision,
  samples,
  pad_factor,
  padded_size,
  grid,
  seidel,
  zernike,
  zernike_order,
  zernike_norm,
  obscuration,
  normalize,
  threads,
  device,
  fft_effort,
  wisdom,
  stage_timing,
  spiders,
  hex_segments,
  pupil_amplitude,
  pupil_opd,
  opd_units,
  coronagraph,
  lyot_stop,
  lyot_spiders,
  mask_sampling,
  plane,
  vary,
  random,
  frames,
  field,
  field_grid,
  field_radius,
  seidel_field,
  double_zernike,
  field_table,
  crop,
  wavelength,
  fnumber,
  pixel_pitch,
  diameter,
  pixel_scale,
  wavelengths,
  band,
  aberration_units,
  propagation,
  oversample,
  jitter,
  source_offset,
  defocus_distance,
  photons,
  background,
  read_noise,
  noise_seed,
  metrics,
  ee_radii,
  mtf_frequencies,
  contrast_radii,
  store,
  repeat,
  chunk_frames,
  compression,
  quiet,
  // `sweep`'s own.
  sweep_output,
  sizes,
  sweep_pad_factor,
  backends,
  precisions,
  batch,
  sweep_repeat,
  sweep_crop,
  sweep_propagation,
  sweep_quiet,
  // `export`'s own.
  export_input,
  fits,
};

inline constexpr std::size_t option_count = static_cast<std::size_t>(Option::fits) + 1;

// What one value is, on the command line and as a TOML value in a config file.
enum class Grammar : std::uint8_t {
  flag,     // no value on the command line; true or false in a config
  integer,  // decimal, within [lowest, highest]; a TOML integer
  number,   // finite; a TOML integer or float
  seed,     // decimal digits, 0 to 2^64 - 1; a TOML integer or its digits as a string
  choice,   // one of `choices`; a string
  backend,  // a backend of this build (then `choices`, for run's auto); a string
  text,     // anything the option's own parser reads (a length, a file, a tuple); a string
};

// How many values an option takes.
enum class Arity : std::uint8_t {
  one,         // one value
  comma_text,  // one value that is a comma-separated list or tuple; a config array's items
               // are joined with commas into it (ee-radii = [1, 2] is "1,2")
  repeated,    // the option is given once per value (--zernike 4,0.1 --zernike 11,0.05)
  list,        // comma-separated values, each checked (--sizes 64,128); a config array
};

// The commands whose options the table holds.
enum class Command : std::uint8_t { run, sweep, export_fits };

struct OptionInfo {
  Option id;
  std::string_view name{};  // long name without dashes, and the config key
  Grammar grammar = Grammar::text;
  Arity arity = Arity::one;
  std::string_view value_name{};  // how the help names the value ("N", "K,..."); "" for none
  long long lowest = 0;           // an integer's bounds
  long long highest = 0;
  std::span<const std::string_view> choices{};
  std::string_view shown_default{};  // what the help shows after '=' ("128", "[single]"), or ""
  // The help. "{backends}" stands for the build's backends with a line on each, and
  // "{backend order}" for their names in the order auto tries them (help_text fills both).
  std::string_view help{};
  char short_name = '\0';   // 'o' for -o
  bool positional = false;  // export's input file, named without dashes
  bool required = false;    // the command line must give it (run's output is checked later)
};

[[nodiscard]] const OptionInfo& option(Option id) noexcept;
// Every row, in the order of Option.
[[nodiscard]] std::span<const OptionInfo> all_options() noexcept;
// A command's options in the order its --help lists them (-c, the main app's, is not one).
[[nodiscard]] std::span<const Option> options_of(Command command) noexcept;
// The command's option with this long name (its config key), if any.
[[nodiscard]] const OptionInfo* find_option(Command command, std::string_view name) noexcept;

// "--ee-radii": how messages name an option (a positional one by its name alone).
[[nodiscard]] std::string flag(Option id);
// "ee-radii": the option's key in a config file's table.
[[nodiscard]] std::string_view key(Option id) noexcept;
// "ee_radii": the key as an identifier, for keyword arguments (the Python bindings).
[[nodiscard]] std::string keyword(Option id);
// "integer", "number", ...: a grammar's name, for documentation made from the table.
[[nodiscard]] std::string_view to_string(Grammar grammar) noexcept;

// What a build's backends contribute to the table: their names in the order auto tries
// them, and their one-line summaries joined with "; " ("cpu: FFTW on this machine's cores").
struct BackendNames {
  std::vector<std::string> names;
  std::string summaries;
};
// The option's help with the backends filled in.
[[nodiscard]] std::string help_text(const OptionInfo& option, const BackendNames& backends);
// The words a choice or backend option takes: the backends' names, then the table's choices.
[[nodiscard]] std::vector<std::string> choices_of(const OptionInfo& option,
                                                  const BackendNames& backends);
// How the help names the value: value_name, or for a list of backends their names.
[[nodiscard]] std::string value_text(const OptionInfo& option, const BackendNames& backends);

// Checks one value (one item of a list) as the command line and the config files check it,
// and rewrites `text` into the one form psfsim reads ("010" is 10, "2.50" is 2.5). Returns ""
// when it passes, else why not, in the words of the messages: "'12.5' must be an integer
// from 2 to 16384", "'square' is not one of centered, linspace". Text options pass; their
// own parsers check them.
[[nodiscard]] std::string check_value(const OptionInfo& option, std::string& text,
                                      std::span<const std::string> choices);

// Throws InputError for an integer outside the option's bounds, as the run's validation and a
// sweep's lists see it: "--samples 1: must be between 2 and 16384".
void check_bounds(Option id, long long value);

}  // namespace psfsim

#include "psfsim/option_table.hpp"

#include <array>
#include <limits>

#include "psfsim/optics_spec.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim {
namespace {

using G = Grammar;
using A = Arity;
using Words = std::span<const std::string_view>;

constexpr std::string_view precisions[] = {"single", "double"};
constexpr std::string_view grids[] = {"centered", "linspace"};
constexpr std::string_view zernike_orders[] = {"noll", "ansi", "fringe"};
constexpr std::string_view zernike_norms[] = {"rms", "unit"};
constexpr std::string_view normalizations[] = {"none", "peak", "sum"};
constexpr std::string_view fft_efforts[] = {"auto", "estimate", "measure", "patient", "exhaustive"};
constexpr std::string_view units[] = {"waves", "nm", "um"};
constexpr std::string_view propagations[] = {"fft", "mft", "auto"};
constexpr std::string_view stores[] = {"frames", "metrics", "both"};
constexpr std::string_view automatic[] = {"auto"};

// A sweep's frames per compute call.
constexpr long long max_batch = 1'000'000;
constexpr long long max_device = std::numeric_limits<int>::max();

// Rows without bounds, choices or a shown default.
constexpr OptionInfo text(Option id, std::string_view name, Arity arity,
                          std::string_view value_name, std::string_view help) {
  return {.id = id, .name = name, .arity = arity, .value_name = value_name, .help = help};
}
constexpr OptionInfo flag_row(Option id, std::string_view name, std::string_view help) {
  return {.id = id, .name = name, .grammar = G::flag, .help = help};
}
constexpr OptionInfo number(Option id, std::string_view name, std::string_view value_name,
                            std::string_view shown_default, std::string_view help) {
  return {.id = id,
          .name = name,
          .grammar = G::number,
          .value_name = value_name,
          .shown_default = shown_default,
          .help = help};
}
constexpr OptionInfo integer(Option id, std::string_view name, Arity arity,
                             std::string_view value_name, long long lowest, long long highest,
                             std::string_view shown_default, std::string_view help) {
  return {.id = id,
          .name = name,
          .grammar = G::integer,
          .arity = arity,
          .value_name = value_name,
          .lowest = lowest,
          .highest = highest,
          .shown_default = shown_default,
          .help = help};
}
constexpr OptionInfo choice(Option id, std::string_view name, Arity arity,
                            std::string_view value_name, Words choices,
                            std::string_view shown_default, std::string_view help) {
  return {.id = id,
          .name = name,
          .grammar = G::choice,
          .arity = arity,
          .value_name = value_name,
          .choices = choices,
          .shown_default = shown_default,
          .help = help};
}

constexpr std::array<OptionInfo, option_count> table{{
    {.id = Option::config,
     .name = "config",
     .value_name = "FILE",
     .help = "TOML config file; its [run] and [sweep] tables hold those commands' options",
     .short_name = 'c'},

    // run
    {.id = Option::output,
     .name = "output",
     .value_name = "FILE",
     .help = "HDF5 file to write (appears only when complete)",
     .short_name = 'o'},
    flag_row(Option::force, "force", "Replace an existing output (a regular file only)"),
    {.id = Option::backend,
     .name = "backend",
     .grammar = G::backend,
     .choices = automatic,
     .shown_default = "auto",
     .help = "{backends}; auto: the usable one whose start-up plus estimated work is the "
             "least (a Python Simulator: the first usable of {backend order})"},
    choice(Option::precision, "precision", A::one, "", precisions, "single",
           "Arithmetic and stored precision"),
    integer(Option::samples, "samples", A::one, "N", 2, max_samples, "128",
            "N: pupil samples across the diameter"),
    number(Option::pad_factor, "pad-factor", "Q", "",
           "Q >= 1: padded size M = round(Q*N) (default 2); samples per lambda/D"),
    integer(Option::padded_size, "padded-size", A::one, "M", 2, max_padded_size, "",
            "M >= N: padded FFT size (instead of Q)"),
    choice(Option::grid, "grid", A::one, "", grids, "centered",
           "centered: x_i = (i - N/2)*2/N; linspace: numpy.linspace(-1, 1, N)"),
    text(Option::seidel, "seidel", A::repeated, "l,m,W",
         "l,m,W: W waves of rho^l cos^m(phi), e.g. 2,1,1.0 or 4,0,0.25 (repeatable)"),
    text(Option::zernike, "zernike", A::repeated, "j,c",
         "j,c: c waves of Zernike j, e.g. 4,0.1 (repeatable); by default j is Noll's (j >= 1) "
         "and c the term's RMS: see --zernike-order and --zernike-norm"),
    choice(
        Option::zernike_order, "zernike-order", A::one, "", zernike_orders, "noll",
        "How --zernike (and run's --vary, --random and --frames) number Zernikes: noll (Noll 1976, "
        "from 1), ansi (ANSI Z80.28/OSA j = (n(n+2)+m)/2, from 0) or fringe (University of "
        "Arizona/Zemax Fringe, 1-37)"),
    choice(Option::zernike_norm, "zernike-norm", A::one, "", zernike_norms, "",
           "rms: c is the term's RMS over the pupil (Noll's orthonormal terms); unit: the radial "
           "part is 1 at the rim, no sqrt(n+1) factor (default: rms for noll and ansi, unit for "
           "fringe)"),
    number(Option::obscuration, "obscuration", "E", "0", "Central obscuration ratio in [0, 1)"),
    choice(Option::normalize, "normalize", A::one, "", normalizations, "peak",
           "none: |E|^2; peak: divide by (sum A)^2, the centre is the Strehl ratio; sum: each "
           "frame sums to 1"),
    integer(Option::threads, "threads", A::one, "T", 0, max_threads, "0",
            "CPU threads (0: psfsim chooses among the cores this process may use, its affinity: "
            "for a batch all of them, a frame each; for one PSF one thread up to a size that "
            "falls with the cores (M = 1024 on 2 cores, 256 on 16), all from there)"),
    integer(Option::device, "device", A::one, "D", 0, max_device, "0",
            "GPU index for the cuda backend"),
    choice(Option::fft_effort, "fft-effort", A::one, "", fft_efforts, "",
           "CPU: FFTW planning effort; auto (the default): measure where the run's frames times "
           "repeats pay for the planning, else estimate (always estimate with --wisdom none, so "
           "that reruns without wisdom plan alike); patient finds faster plans but plans for "
           "seconds, once: the wisdom file keeps its plans"),
    text(Option::wisdom, "wisdom", A::one, "FILE",
         "FFTW wisdom file, read before planning and updated after a measured plan (CPU "
         "backend); default: the per-user cache $XDG_CACHE_HOME/psfsim/fftw-wisdom (else "
         "~/.cache/psfsim/), which makes reruns bit-identical; none: no wisdom"),
    flag_row(Option::stage_timing, "stage-timing",
             "GPU: time each stage separately even for small sizes, where the events cost as "
             "much as the stages (default: small runs report one fused stage)"),
    text(Option::spiders, "spiders", A::comma_text, "COUNT,WIDTH[,ANGLE]",
         "COUNT radial struts of WIDTH (a fraction of D) from the axis to the rim, the first at "
         "ANGLE degrees from +x (default 0), evenly spaced, e.g. 4,0.01,45"),
    text(Option::hex_segments, "hex-segments", A::comma_text, "RINGS,GAP[,nocenter][,flat]",
         "Segmented primary replacing the circle: 1 + 3 RINGS (RINGS + 1) hexagons whose "
         "outermost vertices touch the rim, GAP (a fraction of D) between them; nocenter drops "
         "the central one; segments have a vertex on +y, flat turns them flat-topped (as POPPY "
         "and HCIPy draw them), e.g. 2,0.005,nocenter"),
    text(Option::pupil_amplitude, "pupil-amplitude", A::one, "FILE[:DATASET]",
         "N x N amplitude map multiplying the aperture (row = y, column = x): HDF5 (default: "
         "the file's only root dataset), .npy or FITS; a 3-D stack holds one map per frame"),
    text(Option::pupil_opd, "pupil-opd", A::one, "FILE[:DATASET]",
         "N x N OPD map added to the phase, in --opd-units; formats and stacks as "
         "--pupil-amplitude"),
    choice(Option::opd_units, "opd-units", A::one, "", units, "waves",
           "Units of the --pupil-opd map: waves at the reference wavelength, or nm or um (with a "
           "wavelength)"),
    text(Option::coronagraph, "coronagraph", A::one, "MASK",
         "Focal-plane mask of a coronagraph, followed by --lyot-stop: lyot:RADIUS[,T] (an "
         "occulting spot of RADIUS lambda/D, intensity transmission T, default 0), vortex:CHARGE "
         "(even, e.g. 6), fqpm (four-quadrant phase mask) or map:FILE[:DATASET],SAMPLING[,phase] "
         "(a square complex map, or a phase map in waves, SAMPLING lambda/D per sample); the "
         "detector then takes the MFT and `peak` frames are contrast"),
    text(Option::lyot_stop, "lyot-stop", A::comma_text, "DIAMETER[,OBSCURATION]",
         "Lyot stop after --coronagraph: a circle of DIAMETER less a central OBSCURATION, both "
         "fractions of the pupil's diameter, e.g. 0.95 or 0.9,0.35 (default without it: no stop)"),
    text(Option::lyot_spiders, "lyot-spiders", A::comma_text, "COUNT,WIDTH[,ANGLE]",
         "Spiders of the Lyot stop, as --spiders writes them (WIDTH a fraction of the pupil's D)"),
    number(Option::mask_sampling, "mask-sampling", "Q", "16",
           "Samples per lambda/D of a lyot spot: it is sampled at theta = j/Q lambda/D, as an "
           "FFT padded Q times samples it"),
    text(Option::plane, "plane", A::repeated, "PLANE",
         "A plane of an optical train after the pupil, in order (repeatable; instead of "
         "--coronagraph and --lyot-stop): focal:MASK (as --coronagraph), "
         "pupil:DIAMETER[,OBSCURATION][;COUNT,WIDTH[,ANGLE]] (a stop with spiders) or "
         "distance:LENGTH (angular-spectrum propagation, with --diameter and a wavelength)"),
    text(Option::vary, "vary", A::comma_text, "TERM,START,STOP,COUNT",
         "Batch: one term stepped linearly, e.g. Z4,-1,1,21 (defocus through focus) or "
         "S2_0,0,2,5"),
    text(Option::random, "random", A::comma_text, "JMIN-JMAX,RMS,COUNT,SEED",
         "Batch: Zernike terms JMIN..JMAX (numbered as --zernike-order says) drawn from a "
         "normal distribution with an expected RMS wavefront of RMS waves, reproducible from "
         "SEED, e.g. 4-15,0.05,1000,1"),
    text(Option::frames, "frames", A::one, "FILE",
         "Batch: CSV table, a header naming the terms (Z4,S2_1,...; field_x,field_y place "
         "the frame in the field) and one row per frame"),
    text(Option::field, "field", A::comma_text, "X,Y",
         "Field point of every frame: in units of the field radius (0,0 on axis, 1 at the "
         "edge), or angles with --field-radius, e.g. 0.5,-0.25 or 2arcmin,0arcmin"),
    text(Option::field_grid, "field-grid", A::comma_text, "NX,NY[,R]",
         "Batch: NX x NY field points spanning [-R, R] evenly on each axis, x fastest (R "
         "defaults to 1, the field radius; an axis of one point sits at 0), e.g. 9,9"),
    text(Option::field_radius, "field-radius", A::one, "ANGLE",
         "The field's radius on the sky (mas, arcsec, arcmin or deg, e.g. 5arcmin): lets "
         "--field and --field-grid take angles, and records the field points as angles"),
    text(Option::seidel_field, "seidel-field", A::repeated, "k,l,m,W",
         "k,l,m,W: Hopkins' field term W H^k rho^l cos^m(phi - theta_H), pointing along the "
         "field point, e.g. 1,3,1,0.2 for coma growing linearly with field (repeatable)"),
    text(Option::double_zernike, "double-zernike", A::repeated, "k,j,c",
         "k,j,c: c Z_k(H) Z_j(rho, phi), a double Zernike (GalSim's): Noll index k over the "
         "field, j over the pupil, e.g. 2,7,0.1 (repeatable)"),
    text(Option::field_table, "field-table", A::one, "FILE",
         "Zernike/Seidel coefficients at field points (CSV with field_x,field_y and terms, or "
         "HDF5 with those 1-D datasets), interpolated to each frame's point: cubic on a grid, "
         "else linear on a triangulation"),
    integer(Option::crop, "crop", A::one, "K", 1, max_padded_size, "",
            "K: keep the central K x K of each frame (with a physical pixel scale: the "
            "detector's K x K pixels, default 128)"),
    text(Option::wavelength, "wavelength", A::one, "LENGTH",
         "Wavelength of a monochromatic run, and the reference of a spectrum (nm, um, mm or m, "
         "e.g. 550nm)"),
    number(Option::fnumber, "fnumber", "F", "",
           "Focal ratio F; with --pixel-pitch the pixel is p/(lambda F) lambda/D"),
    text(Option::pixel_pitch, "pixel-pitch", A::one, "LENGTH",
         "Detector pixel pitch, with --fnumber (nm, um, mm or m, e.g. 18um)"),
    text(Option::diameter, "diameter", A::one, "LENGTH",
         "Pupil diameter D, with --pixel-scale (nm, um, mm or m, e.g. 6.5m)"),
    text(Option::pixel_scale, "pixel-scale", A::one, "ANGLE",
         "Angle per detector pixel (mas, arcsec, arcmin or deg, with --diameter; or lod: lambda/D "
         "directly), e.g. 31mas"),
    text(Option::wavelengths, "wavelengths", A::comma_text, "LAMBDA:W,...",
         "Spectrum: wavelengths with energy weights (normalized to sum 1; a bare wavelength "
         "weighs 1), e.g. 500nm:1,600nm:2; needs a physical pixel scale"),
    text(Option::band, "band", A::comma_text, "LMIN-LMAX,COUNT",
         "Spectrum: COUNT wavelengths evenly spaced from LMIN to LMAX, equal weights, e.g. "
         "500nm-600nm,5; needs a physical pixel scale"),
    choice(Option::aberration_units, "aberration-units", A::one, "", units, "waves",
           "Units of the --zernike/--seidel/--vary/--random/--frames coefficients: waves at the "
           "reference wavelength, or OPD in nm or um"),
    choice(Option::propagation, "propagation", A::one, "", propagations, "auto",
           "fft: crop of the padded FFT; mft: matrix Fourier transform at any pixel scale and "
           "frame size; auto: the faster where both apply, else mft"),
    integer(Option::oversample, "oversample", A::one, "S", 1, max_oversample, "1",
            "S: compute S x S sub-pixels per detector pixel and sum them (pixel integration)"),
    text(Option::jitter, "jitter", A::one, "ANGLE",
         "RMS pointing jitter per axis: an angle (with --diameter and a wavelength) or lod, e.g. "
         "5mas or 0.1lod"),
    text(Option::source_offset, "source-offset", A::comma_text, "X,Y",
         "Off-axis source: the PSF moves X towards +x (columns) and Y towards +y (rows), each "
         "an angle (with --diameter and a wavelength) or lod, e.g. 3lod,-2lod or 10mas,0mas"),
    text(Option::defocus_distance, "defocus-distance", A::one, "LENGTH",
         "Detector this far from focus (+: beyond it, away from the pupil), with --fnumber and "
         "a wavelength (nm, um, mm or m, e.g. 0.2mm)"),
    number(Option::photons, "photons", "P", "",
           "Photo-electrons reaching the whole focal plane per frame; adds Poisson noise and "
           "stores photo-electrons (--normalize is then ignored)"),
    number(Option::background, "background", "B", "0",
           "Background photo-electrons per pixel (with --photons)"),
    number(Option::read_noise, "read-noise", "R", "0",
           "Read noise, electrons RMS per pixel (with --photons)"),
    {.id = Option::noise_seed,
     .name = "noise-seed",
     .grammar = G::seed,
     .value_name = "SEED",
     .help = "Seed of the noise: the same seed gives the same draws on every backend, chunking and "
             "machine (identical counts for identical frames; backends whose frames differ in the "
             "last bits can differ by one count): a decimal integer from 0 to "
             "18446744073709551615 (2^64 - 1; default 0)"},
    text(Option::metrics, "metrics", A::comma_text, "LIST",
         "Per-frame metrics computed where the frames are, written to /metrics: strehl "
         "(maximum over the aberration-free peak), strehl_centre, centroid (lambda/D), fwhm "
         "(lambda/D), ee (at --ee-radii), rms_wavefront (waves), mtf (at --mtf-frequencies), "
         "or all of these; and contrast (a radial curve at --contrast-radii, over the peak of the "
         "train without its focal-plane masks) and throughput (the fraction of the pupil's "
         "energy on the detector)"),
    // The defaults in these two helps are default_ee_radii and default_mtf_frequencies
    // (tests/option_table_test.cpp holds them to it).
    text(Option::ee_radii, "ee-radii", A::comma_text, "R1,R2,...",
         "Encircled-energy radii in lambda/D about the optical axis (default "
         "0.5,1,1.22,1.5,2,2.23,3,5)"),
    text(Option::mtf_frequencies, "mtf-frequencies", A::comma_text, "NU1,NU2,...",
         "MTF frequencies as fractions of the cutoff D/lambda, in [0, 1] (default "
         "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9)"),
    text(Option::contrast_radii, "contrast-radii", A::comma_text, "R1,R2,...",
         "Separations in lambda/D of the contrast metric's curve: the azimuthal mean and "
         "standard deviation of the frame in contrast over pixels within 0.5 lambda/D of each "
         "(default 2,3,4,5,6,8,10,12,15,20)"),
    choice(Option::store, "store", A::one, "frames|metrics|both", stores, "",
           "What the file keeps: frames (/psf), metrics (/metrics only: no frame leaves the "
           "device) or both; default frames, or both with --metrics"),
    integer(Option::repeat, "repeat", A::one, "R", 1, max_repeat, "1",
            "Compute R times, recording the timings of each"),
    integer(Option::chunk_frames, "chunk-frames", A::one, "F", 0, max_chunk_frames, "0",
            "Frames per compute call and per write (0: at most 16 MiB of output and 4096 "
            "frames)"),
    {.id = Option::compression,
     .name = "compression",
     .value_name = "NAME[:LEVEL]",
     .shown_default = "none",
     .help = "/psf compression: none, deflate[:LEVEL] (shuffle + deflate, any HDF5 reads it; "
             "level 1-9, default 4), lz4 (Debian's hdf5-filter-plugin) or zstd[:LEVEL] (Blosc "
             "with zstd, level 1-9, default 5; Debian's hdf5-filter-plugin-blosc-serial); readers "
             "of lz4 and zstd files need the same plugin"},
    flag_row(Option::quiet, "quiet", "No progress bar and no table: errors and warnings only"),

    // sweep
    {.id = Option::sweep_output,
     .name = "output",
     .value_name = "FILE",
     .help = "HDF5 file for the /sweep table",
     .short_name = 'o'},
    integer(Option::sizes, "sizes", A::list, "N,...", 2, max_samples, "[64,128,256,512,1024,2048]",
            "Pupil sizes N, comma-separated"),
    number(Option::sweep_pad_factor, "pad-factor", "Q", "2", "Q >= 1: M = round(Q*N)"),
    {.id = Option::backends,
     .name = "backends",
     .grammar = G::backend,
     .arity = A::list,
     .help = "Backends to time (default: every one compiled in; unusable ones are reported and "
             "skipped). {backends}"},
    choice(Option::precisions, "precisions", A::list, "P,...", precisions, "[single]",
           "single and/or double, comma-separated"),
    integer(Option::batch, "batch", A::list, "B,...", 1, max_batch, "[1]",
            "Frames per compute, comma-separated"),
    integer(Option::sweep_repeat, "repeat", A::one, "R", 1, max_repeat, "20",
            "Timed computes per combination (after warm-up)"),
    integer(Option::sweep_crop, "crop", A::list, "K,...", 1, max_padded_size, "",
            "Frame sizes K to keep, comma-separated (the K axis; fft rows need K <= M, default: "
            "the full M x M frame)"),
    choice(Option::sweep_propagation, "propagation", A::list, "P,...", propagations, "[auto]",
           "fft, mft and/or auto, comma-separated: each is timed (auto: what `run` picks; the "
           "row records the choice)"),
    flag_row(Option::sweep_quiet, "quiet",
             "No table: print errors and warnings only (the table is in the file)"),

    // export
    {.id = Option::export_input,
     .name = "input",
     .value_name = "IN.h5",
     .help = "psfsim HDF5 file with /psf",
     .positional = true,
     .required = true},
    {.id = Option::fits,
     .name = "fits",
     .value_name = "OUT.fits",
     .help = "FITS file to write; appears only when complete",
     .required = true},
}};

constexpr bool rows_in_order() {
  for (std::size_t i = 0; i < table.size(); ++i)
    if (static_cast<std::size_t>(table[i].id) != i) return false;
  return true;
}
static_assert(rows_in_order(), "the table's rows follow enum Option");

// A key is written bare in TOML ("pad-factor = 2"): letters, digits and dashes only.
constexpr bool bare_keys() {
  for (const OptionInfo& o : table)
    for (const char c : o.name)
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}
static_assert(bare_keys(), "option names are bare TOML keys");

constexpr Option run_list[] = {
    Option::output,
    Option::force,
    Option::backend,
    Option::precision,
    Option::samples,
    Option::pad_factor,
    Option::padded_size,
    Option::grid,
    Option::seidel,
    Option::zernike,
    Option::zernike_order,
    Option::zernike_norm,
    Option::obscuration,
    Option::normalize,
    Option::threads,
    Option::device,
    Option::fft_effort,
    Option::wisdom,
    Option::stage_timing,
    Option::spiders,
    Option::hex_segments,
    Option::pupil_amplitude,
    Option::pupil_opd,
    Option::opd_units,
    Option::coronagraph,
    Option::lyot_stop,
    Option::lyot_spiders,
    Option::mask_sampling,
    Option::plane,
    Option::vary,
    Option::random,
    Option::frames,
    Option::field,
    Option::field_grid,
    Option::field_radius,
    Option::seidel_field,
    Option::double_zernike,
    Option::field_table,
    Option::crop,
    Option::wavelength,
    Option::fnumber,
    Option::pixel_pitch,
    Option::diameter,
    Option::pixel_scale,
    Option::wavelengths,
    Option::band,
    Option::aberration_units,
    Option::propagation,
    Option::oversample,
    Option::jitter,
    Option::source_offset,
    Option::defocus_distance,
    Option::photons,
    Option::background,
    Option::read_noise,
    Option::noise_seed,
    Option::metrics,
    Option::ee_radii,
    Option::mtf_frequencies,
    Option::contrast_radii,
    Option::store,
    Option::repeat,
    Option::chunk_frames,
    Option::compression,
    Option::quiet,
};

constexpr Option sweep_list[] = {
    Option::sweep_output,
    Option::force,
    Option::sizes,
    Option::sweep_pad_factor,
    Option::backends,
    Option::precisions,
    Option::batch,
    Option::sweep_repeat,
    Option::sweep_crop,
    Option::sweep_propagation,
    Option::grid,
    Option::seidel,
    Option::zernike,
    Option::zernike_order,
    Option::zernike_norm,
    Option::obscuration,
    Option::normalize,
    Option::threads,
    Option::device,
    Option::fft_effort,
    Option::wisdom,
    Option::stage_timing,
    Option::metrics,
    Option::ee_radii,
    Option::mtf_frequencies,
    Option::store,
    Option::sweep_quiet,
};

constexpr Option export_list[] = {Option::export_input, Option::fits, Option::force};

// Within a command, a name is one option.
constexpr bool names_unique(std::span<const Option> list) {
  for (std::size_t i = 0; i < list.size(); ++i)
    for (std::size_t j = i + 1; j < list.size(); ++j)
      if (table[static_cast<std::size_t>(list[i])].name ==
          table[static_cast<std::size_t>(list[j])].name)
        return false;
  return true;
}
static_assert(names_unique(run_list) && names_unique(sweep_list) && names_unique(export_list));

void replace_all(std::string& text, std::string_view what, std::string_view with) {
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
    text.replace(at, what.size(), with);
}

}  // namespace

const OptionInfo& option(Option id) noexcept { return table[static_cast<std::size_t>(id)]; }

std::span<const OptionInfo> all_options() noexcept { return table; }

std::span<const Option> options_of(Command command) noexcept {
  switch (command) {
    case Command::run: return run_list;
    case Command::sweep: return sweep_list;
    case Command::export_fits: return export_list;
  }
  return {};
}

const OptionInfo* find_option(Command command, std::string_view name) noexcept {
  for (const Option id : options_of(command))
    if (option(id).name == name) return &option(id);
  return nullptr;
}

std::string flag(Option id) {
  const OptionInfo& o = option(id);
  return (o.positional ? "" : "--") + std::string(o.name);
}

std::string_view key(Option id) noexcept { return option(id).name; }

std::string keyword(Option id) {
  std::string name(option(id).name);
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

std::string_view to_string(Grammar grammar) noexcept {
  switch (grammar) {
    case Grammar::flag: return "flag";
    case Grammar::integer: return "integer";
    case Grammar::number: return "number";
    case Grammar::seed: return "seed";
    case Grammar::choice: return "choice";
    case Grammar::backend: return "backend";
    case Grammar::text: return "text";
  }
  return "text";
}

std::string help_text(const OptionInfo& o, const BackendNames& backends) {
  std::string help(o.help);
  std::string order;
  for (const std::string& name : backends.names) order += (order.empty() ? "" : ", then ") + name;
  replace_all(help, "{backends}", backends.summaries);
  replace_all(help, "{backend order}", order);
  return help;
}

std::vector<std::string> choices_of(const OptionInfo& o, const BackendNames& backends) {
  std::vector<std::string> words;
  if (o.grammar == Grammar::backend) words = backends.names;
  for (const std::string_view c : o.choices) words.emplace_back(c);
  return words;
}

std::string value_text(const OptionInfo& o, const BackendNames& backends) {
  if (o.grammar != Grammar::backend || o.arity != Arity::list) return std::string(o.value_name);
  std::string names;
  for (const std::string& name : backends.names) names += (names.empty() ? "" : ",") + name;
  return names;
}

}  // namespace psfsim

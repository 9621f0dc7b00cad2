#pragma once
// What every backend needs to know about the sampled pupil, worked out once per plan on the
// host with pupil_math.hpp (and, beyond the annulus, aperture_geometry.hpp and the maps that
// io read into the ApertureSpec), so that the CPU builder and the GPU kernels sample the same
// grid, aperture and shift modulation bit for bit.
#include <cstddef>
#include <vector>

#include "psfsim/aperture_spec.hpp"
#include "psfsim/enums.hpp"

namespace psfsim {

// The aperture of one pupil row: columns [lo, hi) minus the obscured columns
// [obscured_lo, obscured_hi). Rounded sqrt(x^2 + y^2) is monotone in |x|, so every row of an
// annulus is one such span; the constructor checks it against the exact per-sample test.
// With an amplitude map it is the row's bounding span of nonzero samples (nothing obscured),
// and the map says the rest.
struct ApertureSpan {
  int lo = 0;
  int hi = 0;
  int obscured_lo = 0;
  int obscured_hi = 0;
};

// What a run does with its maps, which decides what SampledPupil may change in them and what
// it must refuse (docs/pupils.md).
struct PupilMapUse {
  Precision precision = Precision::double_;
  // The run's shortest wavelength, at which the OPD has the most waves; 0: the reference's.
  double shortest_wavelength_m = 0.0;
  // Whether the frames are independent of the amplitude's overall scale (peak or sum
  // normalization, photon counts): then the map is scaled by a power of two to a largest
  // |A| in [1, 2), exactly. Otherwise the frames hold |E|^2 in the map's own units, whose
  // peak (sum |A|)^2 must lie in the precision's range.
  bool amplitude_scale_cancels = false;
  int oversample = 1;  // S: a detector pixel sums S x S samples of |E|^2
};

// Phase terms that every frame shares and that the run's physics defines rather than a
// coefficient or a file (docs/physical-optics.md): an off-axis source's tilt and a detector
// out of focus. SampledPupil adds them to the OPD maps, in waves at the reference wavelength,
// so that both backends apply them (scaled by lambda_ref/lambda_k over a spectrum, as any OPD
// map is) and the aberration-free reference frame, which takes no OPD map, leaves them out.
struct StaticPupilTerms {
  // W = X xi_x + Y xi_y, xi = (x, y)/2 the pupil coordinate in units of D: the PSF moves by
  // (X, Y) lambda_ref/D, towards +x (columns) and +y (rows).
  double offset_x = 0.0;
  double offset_y = 0.0;
  // W = (DZ/lambda_ref) (sqrt(1 - (rho/2F)^2) - 1): the focal field's angular spectrum
  // propagated by DZ, as an OPD in the pupil.
  double defocus_waves = 0.0;  // DZ / lambda_ref
  double fnumber = 0.0;        // F, above 1/2 wherever defocus_waves is not 0
  [[nodiscard]] bool any() const noexcept {
    return offset_x != 0.0 || offset_y != 0.0 || defocus_waves != 0.0;
  }
};

// The OPD, in waves at the reference wavelength, that `terms` give the pupil sample at
// (x, y) of docs/spec.md §1's grid (rho clamped to the rim, where no aperture is open).
[[nodiscard]] double static_terms_waves(const StaticPupilTerms& terms, double x, double y) noexcept;

// OPD maps hold values below this many waves at every wavelength of the run: beyond it,
// doubles lie more than 1e-6 waves apart.
inline constexpr double max_opd_waves = 0x1p33;

struct SampledPupil {
  int samples = 0;                  // N
  int padded = 0;                   // M
  int offset = 0;                   // first pupil row and column in the M x M array
  std::vector<double> coordinates;  // x_i (and y_i: the same grid), i in [0, N)
  std::vector<double> shift_waves;  // shift modulation of padded index n, n in [0, M)
  std::vector<ApertureSpan> spans;  // one per pupil row
  double aperture_sum = 0.0;        // sum of A over the pupil samples (of frame 0's map)
  double energy_sum = 0.0;          // sum of A^2: the pupil's energy (Parseval's total)
  double peak_scale = 0.0;          // 1 / (sum A)^2, the `peak` normalization's factor
  // Beyond the annulus (docs/spec.md §7), row-major N x N maps, one per frame or one for all:
  // A (the shapes' 0/1 times the amplitude file, scaled as PupilMapUse says), empty for the
  // annulus alone; and the OPD in waves at the reference wavelength less each map's midrange
  // (a constant, which changes no intensity at any wavelength), plus the StaticPupilTerms
  // less their own midrange; empty for none.
  std::vector<double> amplitude;
  std::size_t amplitude_maps = 0;  // 0, 1, or the batch's B
  std::vector<double> opd;
  std::size_t opd_maps = 0;  // 0, 1, or the batch's B

  // Throws InputError naming --samples, --grid and --obscuration when no sample is inside.
  SampledPupil(int samples, int padded, Grid grid, double obscuration);
  // The same with spiders, hexagons and maps. `reference_wavelength_m` turns an OPD in nm or
  // um into waves; `batch` is B, which a stack of maps must match. Throws InputError naming
  // the option (and file) at fault, and for maps `use` says cannot be computed. A map that
  // `aperture` names must have been read into it (read_pupil_maps): std::logic_error if not.
  // `terms` are added to every OPD map, or make the one map where no file gives one.
  SampledPupil(int samples, int padded, Grid grid, double obscuration, const ApertureSpec& aperture,
               double reference_wavelength_m, std::size_t batch, const PupilMapUse& use = {},
               const StaticPupilTerms& terms = {});

  // The maps of the frame with batch index `frame` (AberrationPolynomial::batch_index), null when
  // there is none: frame -1 (the aberration-free reference) has no OPD.
  [[nodiscard]] const double* amplitude_of(long long frame) const noexcept {
    if (amplitude.empty()) return nullptr;
    return amplitude.data() + map_offset(amplitude_maps, frame < 0 ? 0 : frame);
  }
  [[nodiscard]] const double* opd_of(long long frame) const noexcept {
    if (opd.empty() || frame < 0) return nullptr;
    return opd.data() + map_offset(opd_maps, frame);
  }
  // Doubles from one frame's map to the next: 0 when every frame shares one.
  [[nodiscard]] std::size_t amplitude_stride() const noexcept {
    return amplitude_maps > 1 ? map_size() : 0;
  }
  [[nodiscard]] std::size_t opd_stride() const noexcept { return opd_maps > 1 ? map_size() : 0; }

 private:
  void remove_opd_midrange();
  void add_static_terms(const StaticPupilTerms& terms);
  // Which samples of OPD map `f` of `maps` lie in the aperture its frames see.
  [[nodiscard]] std::vector<char> opd_aperture(std::size_t f, std::size_t maps) const;
  [[nodiscard]] std::size_t map_size() const noexcept {
    return static_cast<std::size_t>(samples) * static_cast<std::size_t>(samples);
  }
  [[nodiscard]] std::size_t map_offset(std::size_t maps, long long frame) const noexcept {
    return maps > 1 ? static_cast<std::size_t>(frame) * map_size() : 0;
  }
};

}  // namespace psfsim

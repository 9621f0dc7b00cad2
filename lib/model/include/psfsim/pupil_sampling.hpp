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
  // (a constant, which changes no intensity at any wavelength), empty for none.
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
  SampledPupil(int samples, int padded, Grid grid, double obscuration, const ApertureSpec& aperture,
               double reference_wavelength_m, std::size_t batch, const PupilMapUse& use = {});

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
  [[nodiscard]] std::size_t map_size() const noexcept {
    return static_cast<std::size_t>(samples) * static_cast<std::size_t>(samples);
  }
  [[nodiscard]] std::size_t map_offset(std::size_t maps, long long frame) const noexcept {
    return maps > 1 ? static_cast<std::size_t>(frame) * map_size() : 0;
  }
};

}  // namespace psfsim

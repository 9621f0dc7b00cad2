#pragma once
// What every backend needs to know about the sampled pupil, worked out once per plan on the
// host with pupil_math.hpp, so that the CPU builder and the GPU kernels sample the same grid,
// aperture and shift modulation bit for bit.
#include <vector>

#include "psfsim/enums.hpp"

namespace psfsim {

// The aperture of one pupil row: columns [lo, hi) minus the obscured columns
// [obscured_lo, obscured_hi). Rounded sqrt(x^2 + y^2) is monotone in |x|, so every row is one
// such span; the constructor checks it against the exact per-sample test.
struct ApertureSpan {
  int lo = 0;
  int hi = 0;
  int obscured_lo = 0;
  int obscured_hi = 0;
};

struct PupilFacts {
  int samples = 0;                   // N
  int padded = 0;                    // M
  int offset = 0;                    // first pupil row and column in the M x M array
  std::vector<double> coordinates;   // x_i (and y_i: the same grid), i in [0, N)
  std::vector<double> shift_waves;   // shift modulation of padded index n, n in [0, M)
  std::vector<ApertureSpan> spans;   // one per pupil row
  double aperture_sum = 0.0;         // sum of A over the pupil samples
  double peak_scale = 0.0;           // 1 / (sum A)^2, the `peak` normalization's factor

  // Throws InputError naming --samples, --grid and --obscuration when no sample is inside.
  PupilFacts(int samples, int padded, Grid grid, double obscuration);
};

}  // namespace psfsim

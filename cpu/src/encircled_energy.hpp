#pragma once
// docs/metrics.md's exact `ee` on the CPU: a frame's |E|^2 over a full-period grid of L >= 2N - 1
// points per axis, folded to a quadrant and summed against the plan's weight tables
// (psfsim/encircled_energy_weights.hpp). The grid is either the FFT's own M x M plane (every
// d-th row and column about the axis), or a transform of the N x N pupil field padded to L:
// rows into one buffer, transposed into another, rows again, all contiguous FFTW_ESTIMATE
// batches (the same plan in every process, so reruns give the same bits).
#include <complex>
#include <cstddef>
#include <vector>

#include "fftw_api.hpp"
#include "psfsim/encircled_energy_weights.hpp"
#include "psfsim/psf_plan.hpp"

namespace psfsim::cpu {

// Whether the FFT backend should compute its whole M x M plane for `ee` (the row pass over
// all M rows instead of the crop's K), rather than transform the pupil once more: where the
// plane is a full-period grid and its extra rows cost less than that transform.
[[nodiscard]] bool ee_reads_whole_plane(const PsfPlan& plan);

template <typename T>
class EncircledEnergy {
 public:
  using Complex = std::complex<T>;

  // One caller's buffers: the quadrant and, for pupils, the transform's.
  struct Scratch {
    FftwArray<Complex> rows_in;    // N x L: the pupil's rows, zero past column N
    FftwArray<Complex> rows_out;   // N x L: their transforms
    FftwArray<Complex> grid_in;    // L x L: rows_out transposed, zero past column N
    FftwArray<Complex> grid;       // L x L: F, transposed
    std::vector<double> quadrant;  // half x half
    std::vector<double> row;       // L: one grid row's |E|^2
  };

  // From the FFT's whole plane (ee_reads_whole_plane, or the GPU's always): every stride-th
  // row and column about the axis (M/2, M/2).
  static EncircledEnergy from_plane(const PsfPlan& plan);
  // From N x N pupil fields, through a transform of encircled_energy_period(N). `shifted`:
  // the fields carry the FFT's shift modulation (pupil_math.hpp), removed as they are read.
  // Plans with `threads` FFTW threads (the caller has initialized FFTW's threads where > 1)
  // and must hold fftw_planner_mutex().
  static EncircledEnergy from_pupils(const PsfPlan& plan, bool shifted, int threads);

  EncircledEnergy() = default;
  EncircledEnergy(EncircledEnergy&&) noexcept = default;
  EncircledEnergy& operator=(EncircledEnergy&&) noexcept = default;

  [[nodiscard]] Scratch make_scratch() const;
  // Host bytes the tables and one scratch take, for the caller's memory check.
  [[nodiscard]] static std::size_t bytes(const PsfPlan& plan, bool from_plane, int scratches);
  [[nodiscard]] int radii() const noexcept { return weights_.radii; }

  // Add channel `channel`'s share of each radius's EE to sums[0, radii): from the N x N pupil
  // field whose rows lie `row_stride` values apart, or from the whole M x M plane (row-major).
  void add_pupil(const Complex* field, std::size_t row_stride, int channel, Scratch& s,
                 double* sums) const;
  void add_plane(const Complex* plane, Scratch& s, double* sums) const;

 private:
  void fold_grid(const Complex* grid, std::size_t row_stride, Scratch& s) const;
  void add_quadrant(int channel, Scratch& s, double* sums) const;

  EncircledEnergyWeights weights_;
  int samples_ = 0;
  int padded_ = 0;
  int stride_ = 0;  // plane: every stride-th row and column
  // The row (and column) of the plane or transform that holds grid index j (j = 0 on the
  // axis): the plane's (M/2 + d j) mod M, the transform's (a + j) mod L.
  std::vector<int> grid_index_;
  std::vector<Complex> unshift_;  // pupils of odd M: exp(-2 pi i shift_waves) of each sample
  FftwPlan<T> rows_plan_;         // N rows of L, rows_in -> rows_out
  FftwPlan<T> grid_plan_;         // L rows of L, grid_in -> grid
};

// The `ee` of frames held a block at a time (the MFT's), channel by channel: sums per frame,
// written into their metric rows when the block's channels are done. Inactive without `ee`.
template <typename T>
class BlockEncircledEnergy {
 public:
  // `frames`: most frames a block holds; `threads`: OpenMP threads over them.
  BlockEncircledEnergy(const PsfPlan& plan, int frames, int threads);

  [[nodiscard]] bool active() const noexcept { return active_; }
  // Channel `channel` of frames [0, count) from their N x N pupils, `pupil_stride` values apart.
  void add_channel(const std::complex<T>* pupils, std::size_t pupil_stride, int count, int channel);
  // Frame f's values into rows + f * values_per_frame, then zero for the next block.
  void write(int count, double* rows, std::size_t values_per_frame);

 private:
  bool active_ = false;
  std::size_t offset_ = 0;  // the ee column's first value in a frame's row
  int threads_ = 1;
  int samples_ = 0;
  EncircledEnergy<T> engine_;
  std::vector<typename EncircledEnergy<T>::Scratch> scratch_;  // one per thread
  std::vector<double> sums_;                                   // frames x radii
};

}  // namespace psfsim::cpu

#pragma once
// /parameters (docs/spec.md §3): one float64 dataset per phase term that any frame uses, one entry
// per
// frame. The entries are written chunk by chunk with the frames, on the writer's thread: a
// million frames' terms (a hundred megabytes) would otherwise hold up the file's opening.
#include <cstddef>
#include <tuple>
#include <vector>

#include "hdf5_handles.hpp"
#include "psfsim/aberration_batch.hpp"
#include "psfsim/run_spec.hpp"

namespace psfsim::h5 {

class ParameterDatasets {
 public:
  // Creates /parameters and its datasets for the frames of `spec`, which outlives this object.
  ParameterDatasets(hid_t root, const RunSpec& spec);
  // Writes the entries of the frames not yet written, up to `last` (exclusive).
  void write_through(std::size_t last);

 private:
  using Key = std::tuple<bool, int, int>;  // zernike?, l or j, m or -1
  [[nodiscard]] std::size_t column(const Key& k) const;
  // The entries of frames [written_, written_ + count) into `values`, [column][frame].
  void fill_columns(std::size_t count, std::vector<double>& values);

  AberrationBatch frames_;
  std::vector<Key> keys_;  // sorted: the datasets' order
  // Drawn frames: the entries every frame shares (its fixed terms) and the draws' columns.
  std::vector<double> fixed_row_;
  std::vector<std::size_t> drawn_columns_;
  std::vector<Handle> sets_;
  std::vector<Handle> field_sets_;  // field_x, field_y when the frames have field points
  std::size_t written_ = 0;
};

}  // namespace psfsim::h5

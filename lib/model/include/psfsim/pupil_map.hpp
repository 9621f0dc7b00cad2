#pragma once
// A pupil map in memory (docs/spec.md §7): what io's readers (pupil_maps.hpp) make of an
// HDF5 dataset, a .npy array or a FITS image, and what the sampler (pupil_sampling.hpp) takes,
// so that the model layer reads no file.
#include <cstddef>
#include <string>
#include <vector>

namespace psfsim {

// A 2-D map, or a 3-D stack of one map per frame, row-major: [frame][row = y][column = x].
struct PupilMap {
  std::string source;      // the option's text it was read from: FILE or FILE:DATASET
  std::string file;        // the file, for messages
  std::string dataset;     // HDF5: the dataset read
  bool stacked = false;    // a 3-D array: one map per frame of the batch
  std::size_t frames = 1;  // the first dimension of a stack, else 1
  std::size_t rows = 0;
  std::size_t columns = 0;
  std::vector<double> values;  // empty when only the header was read
};

}  // namespace psfsim

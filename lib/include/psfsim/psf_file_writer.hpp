#pragma once
// Writes the HDF5 file of SPEC §3. The file is built under a temporary name in the target's
// folder and renamed by commit(); a writer destroyed before commit() removes it, so a failed
// run never leaves a partial file behind.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "psfsim/enums.hpp"
#include "psfsim/output_path.hpp"
#include "psfsim/phase_terms.hpp"
#include "psfsim/run_spec.hpp"
#include "psfsim/timing_log.hpp"

namespace psfsim {

struct PsfFileLayout {
  Geometry geometry;
  std::size_t frames = 1;  // B
  Precision precision = Precision::single;
  Grid grid = Grid::centered;
  Normalization normalization = Normalization::peak;
  double obscuration = 0.0;
  std::string backend;
  std::string command_line;
  std::string config_toml;
};


class PsfFileWriter {
 public:
  PsfFileWriter(std::filesystem::path path, const PsfFileLayout& layout);
  PsfFileWriter(const PsfFileWriter&) = delete;
  PsfFileWriter& operator=(const PsfFileWriter&) = delete;
  ~PsfFileWriter();

  // `count` frames of the layout's precision, K*K reals each, starting at frame `first`.
  void write_frames(std::size_t first, std::size_t count, const void* data);
  void write_parameters(const std::vector<PhaseTerms>& frames);
  void write_timings(const TimingLog& log);
  // Flushes, closes and renames into place.
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace psfsim
